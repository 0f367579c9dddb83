"""Each flagged line holds a fact that another owner (or the same object) already holds."""

import time


class ClientRequest:
    def __init__(self, request_id: str, prompt: str, max_tokens: int) -> None:
        self.request_id = request_id
        self.prompt = prompt
        self.max_tokens = max_tokens


class StageState:
    def __init__(self, request: ClientRequest) -> None:
        self.request_id = request.request_id  # [duplicated-state-field]
        self.prompt = request.prompt
        self.max_tokens = request.max_tokens
        self.tokens: list[int] = []
        self.num_tokens = len(self.tokens)  # [duplicated-state-field]
        self.last_step_at = 0.0  # [duplicated-state-field]

    def append(self, token: int) -> None:
        self.tokens.append(token)
        self.num_tokens = len(self.tokens)
        self.last_step_at = time.monotonic()

    def done(self) -> bool:
        return self.num_tokens >= self.max_tokens or self.prompt == "" or self.request_id == ""


class Scheduler:
    def __init__(self) -> None:
        self.states: dict[str, StageState] = {}
        self.running: set[str] = set()  # [duplicated-state-field]
        self.prompts: dict[str, str] = {}  # [duplicated-state-field]

    def add(self, state: StageState) -> None:
        self.states[state.request_id] = state
        self.running.add(state.request_id)
        self.prompts[state.request_id] = state.prompt

    def finish(self, request_id: str) -> None:
        del self.states[request_id]
        self.running.discard(request_id)
        del self.prompts[request_id]

    def is_running(self, request_id: str) -> bool:
        return request_id in self.running and self.prompts[request_id] != ""


class Topology:
    def __init__(self, world_size: int = 1) -> None:
        self.world_size = world_size  # [duplicated-state-field]

    def ranks(self) -> list[int]:
        return list(range(self.world_size))


class ParallelConfig:
    def __init__(self, world_size: int) -> None:
        self.world_size = world_size


def build_topology(config: ParallelConfig) -> Topology:
    topology = Topology()
    topology.world_size = config.world_size
    return topology


class SpeechModel:
    def __init__(self, model_spec: ParallelConfig) -> None:
        self.model_family = model_spec
        self._model_spec = model_spec  # [duplicated-state-field]

    def describe(self) -> tuple[ParallelConfig, int]:
        return self.model_family, self._model_spec.world_size
