"""Upstream executors: the engine drives whatever executor it is given through these hooks."""


class ExecutorBase:
    def collective_rpc(self, method: str) -> list:
        raise NotImplementedError

    def check_health(self) -> None:
        raise NotImplementedError


def run_step(executor: ExecutorBase) -> list:
    executor.check_health()
    return executor.collective_rpc("execute_model")
