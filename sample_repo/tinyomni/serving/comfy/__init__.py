"""ComfyUI custom nodes for tinyomni: ComfyUI imports this package and reads its two tables."""

from tinyomni.serving.comfy.nodes import TinyOmniGenerate, TinyOmniLoadStage

# trap: ComfyUI reads both tables by name (a framework convention); no code here looks them up
NODE_CLASS_MAPPINGS = {
    "TinyOmniLoadStage": TinyOmniLoadStage,
    "TinyOmniGenerate": TinyOmniGenerate,
}
NODE_DISPLAY_NAME_MAPPINGS = {
    "TinyOmniLoadStage": "tinyomni: load stage",
    "TinyOmniGenerate": "tinyomni: generate",
}
