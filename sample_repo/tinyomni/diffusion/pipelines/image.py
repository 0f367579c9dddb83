"""The tiny-image pipeline."""

from tinyomni.diffusion.registry import register_pipeline


@register_pipeline("tiny-image")
class TinyImagePipelineImpl:
    def __init__(self, transformer, vae):
        self.transformer = transformer
        self.vae = vae

    def __call__(self, latents, steps: int = 20):
        for _ in range(steps):
            latents = self.transformer(latents)
        return self.vae.decode(latents)
