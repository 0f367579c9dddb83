"""`tinyomni-serve`: start the stages of a deploy config."""

import argparse

from tinyomni import envs
from tinyomni.entrypoints.banner import Banner
from tinyomni.entrypoints.log_sinks import make_log_sink
from tinyomni.sampling import SAMPLERS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tinyomni-serve")
    parser.add_argument("--deploy", required=True, help="deploy/*.yaml")
    parser.add_argument("--sampler", choices=sorted(SAMPLERS), default="greedy")
    parser.add_argument("--pipeline", default="tiny-edit", help="diffusion pipeline when the config names none")
    parser.add_argument("--log-level", default=envs.TINYOMNI_LOG_LEVEL)
    parser.add_argument("--legacy-scheduler", action="store_true", help="kept for old launch scripts")  # planted, medium
    parser.add_argument("--log-sink", default="stderr", help="where request logs go")
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    cache_root = envs.TINYOMNI_CACHE_ROOT
    timeout = envs.TINYOMNI_STAGE_TIMEOUT_S
    sink = make_log_sink(args.log_sink)
    sink.write(Banner.render(args.deploy, timeout))
    print(f"serving {args.deploy} with {args.sampler} at {args.log_level} (cache {cache_root}, timeout {timeout}s)")
    return 0
