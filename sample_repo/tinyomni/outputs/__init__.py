"""Stage outputs as the engine hands them to the entrypoints."""

from tinyomni.outputs.common import merge_stage_outputs

__all__ = ["merge_stage_outputs"]
