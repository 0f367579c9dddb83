"""Hands the fast ops to the engine's dispatcher."""

from typing import Callable

from tinyomni.serving.fastops.add import add_fast
from tinyomni.serving.fastops.mul import mul_fast


def register_fast_ops(register: Callable[[str, Callable], None]) -> None:
    register("add", add_fast)
    register("mul", mul_fast)
