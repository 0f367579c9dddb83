"""Upstream executors: the engine calls these hooks on any executor it is given."""


class ExecutorBase:
    def collective_rpc(self, method: str) -> list:
        raise NotImplementedError


def run_step(executor: ExecutorBase) -> list:
    return executor.collective_rpc("execute_model")
