"""Options with a reader: direct, by string, by reflection, or by a documented upstream base."""

import argparse
import os
from dataclasses import dataclass, fields

DEBUG = os.getenv("CASE_DEBUG", "0") == "1"


@dataclass
class ServeConfig:
    model: str
    max_batch_size: int = 8
    dtype: str = "bfloat16"


@dataclass
class LogConfig:
    level: str = "INFO"
    json_lines: bool = False

    def as_env(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--max-batch-size", type=int, default=8)
    return parser


def main() -> int:
    args = build_parser().parse_args()
    config = ServeConfig(model=args.model, max_batch_size=args.max_batch_size)
    batch = 1 if DEBUG else config.max_batch_size
    print(config.model, batch, getattr(config, "dtype"), LogConfig().as_env())
    return 0
