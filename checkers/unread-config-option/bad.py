"""Each flagged option is set somewhere and read nowhere."""

import argparse
import os
from dataclasses import dataclass

PROFILE_DIR = os.getenv("CASE_PROFILE_DIR")  # [unread-config-option]


@dataclass
class ServeConfig:
    model: str
    max_batch_size: int = 8
    swap_space_gb: int = 4  # [unread-config-option]
    world_size: int = 1  # [unread-config-option]
    tensor_parallel_size: int = 1

    def __post_init__(self) -> None:
        self.world_size = self.tensor_parallel_size


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--legacy-mode", action="store_true")  # [unread-config-option]
    return parser


def main() -> int:
    args = build_parser().parse_args()
    config = ServeConfig(model=args.model)
    print(config.model, config.max_batch_size, config.world_size)
    return 0
