"""tinyomni.diffusion.models."""
