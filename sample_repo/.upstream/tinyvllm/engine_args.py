"""Upstream engine arguments: the engine reads these fields by name."""

from dataclasses import dataclass


@dataclass
class EngineArgs:
    model: str = ""
    enforce_eager: bool = False


def create_engine(args: EngineArgs) -> str:
    mode = "eager" if args.enforce_eager else "graph"
    return f"{args.model}:{mode}"
