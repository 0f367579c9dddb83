"""Cache hooks keyed by the transformer's class name (the hook wraps the module it finds)."""

from tinyomni.diffusion.models.transformer import TinyImageTransformer


def _image_hook(module, *args):
    return module(*args)


def _retired_hook(module, *args):
    return module(*args)


_HOOKS = {
    "TinyImageTransformer": _image_hook,
    "RetiredVideoTransformer": _retired_hook,
    "UpstreamVideoTransformer": _image_hook,
    "UpstreamAudioTransformer": _image_hook,
}


def hook_for(module):
    return _HOOKS[type(module).__name__]


def install_default_hook(module: TinyImageTransformer):
    return hook_for(module)
