"""The project's executor layer (trap: its abstract methods are hooks the upstream engine calls)."""

from __future__ import annotations

from tinyupstream.executor import ExecutorBase


class OmniExecutorBase(ExecutorBase):
    def collective_rpc(self, method: str) -> list:
        raise NotImplementedError

    def check_health(self) -> None:
        raise NotImplementedError


class InProcessExecutor(OmniExecutorBase):
    def collective_rpc(self, method: str) -> list:
        return [method]

    def check_health(self) -> None:
        return None


def make_executor() -> OmniExecutorBase:
    return InProcessExecutor()
