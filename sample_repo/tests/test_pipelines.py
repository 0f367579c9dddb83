"""Pipeline registration (validation consumer of the video pipeline key)."""

from tinyomni.diffusion.registry import get_pipeline_class


class _Config:
    pipeline = "tiny-video"


def test_video_pipeline_is_registered():
    import tinyomni.diffusion.pipelines  # noqa: F401

    assert get_pipeline_class(_Config()).__name__ == "TinyVideoPipelineImpl"
