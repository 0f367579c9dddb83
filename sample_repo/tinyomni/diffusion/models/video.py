"""Video generation reuses the upstream video transformer (its class name keys a cache hook)."""

from tinyupstream.models import UpstreamVideoTransformer


def build_video_transformer() -> UpstreamVideoTransformer:
    return UpstreamVideoTransformer()
