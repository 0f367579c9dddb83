"""Node classes: ComfyUI calls `INPUT_TYPES`, `IS_CHANGED` and the method `FUNCTION` names."""


class TinyOmniLoadStage:
    @classmethod
    def INPUT_TYPES(cls):  # trap: ComfyUI calls it
        return {"required": {"stage": ("STRING", {"default": "thinker"})}}

    RETURN_TYPES = ("TINYOMNI_STAGE",)
    FUNCTION = "open_stage"
    CATEGORY = "tinyomni"

    def open_stage(self, stage):  # trap: named by FUNCTION
        return (stage,)


class TinyOmniGenerate:
    @classmethod
    def INPUT_TYPES(cls):  # trap: ComfyUI calls it
        return {"required": {"stage": ("TINYOMNI_STAGE",), "prompt": ("STRING", {"multiline": True})}}

    @classmethod
    def IS_CHANGED(cls, stage, prompt):  # trap: ComfyUI calls it
        return prompt

    RETURN_TYPES = ("STRING",)
    FUNCTION = "render_prompt"
    CATEGORY = "tinyomni"

    def render_prompt(self, stage, prompt):  # trap: named by FUNCTION
        return (f"{stage}: {prompt}",)
