"""Warm the replicas up before the first request (loaded through an entry point)."""


def warm_up(replicas: list) -> int:
    return sum(1 for _ in replicas)


def _warm_compile(shapes: list) -> list:  # [unused-surface] only _warm_allocate calls it, and it calls back
    if not shapes:
        return []
    return [shapes[0], *_warm_allocate(shapes[1:])]


def _warm_allocate(shapes: list) -> list:
    return _warm_compile(shapes[1:]) if len(shapes) > 1 else shapes
