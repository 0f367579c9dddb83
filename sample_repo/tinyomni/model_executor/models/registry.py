"""Model architectures by the name a checkpoint's config.json gives in `architectures`."""

_OMNI_MODELS = {
    # architecture: (module under tinyomni.model_executor.models, class)
    "TinyOmniForConditionalGeneration": ("tiny_omni", "TinyOmniForConditionalGeneration"),
    "TinyOmniTalkerModel": ("tiny_omni_talker", "TinyOmniTalker"),
    "TinyOmniLegacyForCausalLM": ("tiny_omni_legacy", "TinyOmniLegacyLM"),
}

# Every architecture the engine can serve (kept "for later"; nothing reads it).
_ALL_ARCHITECTURES = {**_OMNI_MODELS}


def resolve_model_cls(architectures: list[str]) -> tuple[str, str]:
    for arch in architectures:
        if arch in _OMNI_MODELS:
            module, cls_name = _OMNI_MODELS[arch]
            return f"tinyomni.model_executor.models.{module}", cls_name
    raise ValueError(f"no supported architecture in {architectures}")
