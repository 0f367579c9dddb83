"""Pipelines; importing the package registers every one of them."""

from tinyomni.diffusion.pipelines import audio_legacy, edit, image, video  # noqa: F401
