"""Shutdown hooks register themselves by name (a registry nothing ever reads)."""

from typing import Callable

_SHUTDOWN_HOOKS: dict[str, Callable[[], None]] = {}


def register_shutdown_hook(name: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def wrap(fn: Callable[[], None]) -> Callable[[], None]:
        _SHUTDOWN_HOOKS[name] = fn
        return fn

    return wrap


@register_shutdown_hook("flush-metrics")
def flush_metrics() -> None:
    print("metrics flushed")


@register_shutdown_hook("close-connectors")
def close_connectors() -> None:
    print("connectors closed")
