"""The tiny-video pipeline."""

from tinyomni.diffusion.registry import register_pipeline


@register_pipeline("tiny-video")
class TinyVideoPipelineImpl:
    def __init__(self, transformer, vae):
        self.transformer = transformer
        self.vae = vae

    def __call__(self, latents, steps: int = 20):
        for _ in range(steps):
            latents = self.transformer(latents)
        return self.vae.decode(latents)
