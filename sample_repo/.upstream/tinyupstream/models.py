"""Upstream transformer classes."""


class UpstreamVideoTransformer:
    def forward(self, latents):
        return latents


class UpstreamAudioTransformer:
    def forward(self, latents):
        return latents
