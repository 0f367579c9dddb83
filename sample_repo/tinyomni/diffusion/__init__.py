"""tinyomni.diffusion."""
