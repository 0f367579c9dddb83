"""Which checkpoint weights a loader keeps (planted: one implementation, no extension mechanism)."""

from __future__ import annotations


class WeightFilter:
    """Decides, by name, whether a checkpoint tensor is loaded."""

    def keep(self, name: str) -> bool:
        raise NotImplementedError


class PrefixWeightFilter(WeightFilter):
    """Keeps the weights under some prefixes, e.g. only the talker's."""

    def __init__(self, prefixes: tuple[str, ...]) -> None:
        self.prefixes = prefixes

    def keep(self, name: str) -> bool:
        return name.startswith(self.prefixes)


def kept(names: list[str], weight_filter: WeightFilter) -> list[str]:
    return [name for name in names if weight_filter.keep(name)]
