"""`duplicated-state-field`: the five shapes, their cross-file evidence, and the traps.

Each test lints a small temporary project with real pylint runs; the evidence that
lives in other files (builders, readers in YAML, `getattr` strings, tests) is part of
the project, as in real code.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from conftest import Finding, enable_args, run_pylint
from test_change_sets import omni_json

SYMBOL = "duplicated-state-field"


def write_project(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'state-case'\n")
    for relpath, text in files.items():
        target = root / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))


def lint(root: Path, cache_dir: Path, *extra: str) -> list[Finding]:
    _, findings, stderr = run_pylint([*enable_args([SYMBOL]), *extra, "pkg"], cwd=root, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    return [f for f in findings if f.symbol == SYMBOL]


CANDIDATES = {
    "pkg/__init__.py": "",
    "pkg/state.py": '''
        import time


        class Request:
            def __init__(self, rid: str, prompt: str, budget: int) -> None:
                self.rid = rid
                self.prompt = prompt
                self.budget = budget


        class StageState:
            def __init__(self, request: Request) -> None:
                self.rid = request.rid
                self.prompt = request.prompt
                self.budget = request.budget
                self.items: list[int] = []
                self.count = len(self.items)
                self.touched_at = 0.0
                self.by_yaml = 0
                self.by_getattr = 0
                self.by_tests = 0
                self.size_now = len(self.items)

            def push(self, item: int) -> None:
                self.items.append(item)
                self.count = len(self.items)
                self.touched_at = time.monotonic()

            def reset(self) -> None:
                self.items = []
                self.count = len(self.items)
                self.by_tests = 0

            def done(self) -> bool:
                return self.count > self.budget or not self.prompt or not self.rid or self.size_now > 0


        class Table:
            def __init__(self) -> None:
                self._states = {}
                self._started = {}
                self._log = {}
                self._live = set()
                self._prompts = {}

            def add(self, state: StageState) -> None:
                self._states[state.rid] = state
                self._started[state.rid] = time.monotonic()
                self._log[state.rid] = "added"
                self._live.add(state.rid)
                self._prompts[state.rid] = state.prompt

            def drop(self, rid: str) -> None:
                del self._states[rid]
                self._started.pop(rid)
                self._live.discard(rid)
                self._prompts.pop(rid)

            def size(self) -> int:
                return len(self._states) + len(self._started) + len(self._log) + len(self._live) + len(self._prompts)

            def active(self, rid: str) -> bool:
                return rid in self._live and bool(self._prompts[rid])


        class Topology:
            def __init__(self, world_size: int = 1, dp_size: int = 1) -> None:
                self.world_size = world_size
                self.dp_size = dp_size

            def ranks(self) -> int:
                return self.world_size * self.dp_size
    ''',
    "pkg/build.py": '''
        from pkg.state import Topology


        def build(config) -> Topology:
            topology = Topology()
            topology.world_size = config.world_size
            return topology


        def build_replica(replica_config) -> Topology:
            replica = Topology(dp_size=2)
            replica.world_size = replica_config.world_size
            return replica


        def peek(state) -> int:
            return getattr(state, "by_getattr")
    ''',
    "deploy/stage.yaml": "stages:\n  - by_yaml: 1\n",
    "tests/test_state.py": '''
        def test_reads(state):
            assert state.by_tests == 0
    ''',
}


def test_each_shape_is_reported_with_its_evidence(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, CANDIDATES)
    findings = lint(tmp_path, cache_dir)
    by_line = {(f.path, f.line): f for f in findings}
    assert {(f.path, f.line, f.confidence) for f in findings} == {
        ("pkg/state.py", 14, "HIGH"),  # mirror: rid, prompt, budget from Request
        ("pkg/state.py", 18, "HIGH"),  # derivable: count = len(self.items), re-derived twice
        ("pkg/state.py", 19, "HIGH"),  # written, never read at run time: touched_at (a value, `time.monotonic()`)
        ("pkg/state.py", 22, "INFERENCE"),  # reset at run time, read only by tests
        # size_now (23): derivable but assigned once, a snapshot: not kept in sync by hand
        ("pkg/state.py", 44, "HIGH"),  # a set always equal to a dict's keys
        ("pkg/state.py", 45, "HIGH"),  # a map whose values are read from the other map's values
        ("pkg/state.py", 69, "HIGH"),  # overwritten provisional value: every builder overwrites it
    }  # _started: same keys and lifecycle as _states but another fact (a time): not reported
    mirror = by_line[("pkg/state.py", 14)].message
    assert "StageState copies rid, prompt, budget from Request" in mirror
    assert "keep Request as the single owner" in mirror
    assert "Table._live is always the key set of Table._states" in by_line[("pkg/state.py", 44)].message
    derived = by_line[("pkg/state.py", 45)].message
    assert "Table._prompts is derivable from Table._states" in derived and "`_prompts[state.rid] = state.prompt`" in derived
    provisional = by_line[("pkg/state.py", 69)].message
    assert "config.world_size" in provisional and "pkg/build.py:7" in provisional
    assert "tests/test_state.py" in by_line[("pkg/state.py", 22)].message


def test_one_builder_passing_the_value_keeps_the_parameter(tmp_path: Path, cache_dir: Path) -> None:
    """A construction that passes the value (no overwrite) makes the parameter live."""
    files = dict(CANDIDATES)
    files["pkg/plain.py"] = '''
        from pkg.state import Topology


        def build_plain(config) -> Topology:
            return Topology(config.world_size, config.dp_size)
    '''
    write_project(tmp_path, files)
    assert not any(f.line == 69 for f in lint(tmp_path, cache_dir))


TRAPS = {
    "pkg/__init__.py": "",
    "pkg/traps.py": '''
        import copy
        import dataclasses
        import threading
        from dataclasses import dataclass
        from typing import NamedTuple

        import msgspec
        from pydantic import BaseModel


        class Request:
            def __init__(self, rid: str, prompt: str, budget: int) -> None:
                self.rid = rid
                self.prompt = prompt
                self.budget = budget


        class Wire(msgspec.Struct):
            rid: str
            prompt: str
            budget: int


        class FromWire:
            def __init__(self, wire: Wire) -> None:
                self.rid = wire.rid
                self.prompt = wire.prompt
                self.budget = wire.budget


        class Api(BaseModel):
            rid: str
            prompt: str
            budget: int


        class Msg(NamedTuple):
            rid: str
            prompt: str
            budget: int


        def to_api(request: Request) -> Api:
            return Api(rid=request.rid, prompt=request.prompt, budget=request.budget)


        def to_msg(request: Request) -> Msg:
            return Msg(rid=request.rid, prompt=request.prompt, budget=request.budget)


        class Pickled:
            def __init__(self, request: Request) -> None:
                self.rid = request.rid
                self.prompt = request.prompt
                self.budget = request.budget

            def __getstate__(self) -> dict:
                return {"rid": self.rid}


        @dataclass(frozen=True)
        class Frozen:
            rid: str
            prompt: str
            budget: int


        def freeze(request: Request) -> Frozen:
            return Frozen(rid=request.rid, prompt=request.prompt, budget=request.budget)


        class Deep:
            def __init__(self, request: Request) -> None:
                self.prompt = copy.deepcopy(request.prompt)
                self.frozen = dataclasses.replace(freeze(request), prompt="")


        class Reflected:
            def __init__(self) -> None:
                self.unread_a = 1

            def row(self) -> dict:
                return dict(self.__dict__)


        class Worker(threading.Thread):
            def __init__(self) -> None:
                super().__init__()
                self.daemon = True


        class Alias:
            def __init__(self, rid: str) -> None:
                self.rid = rid
                self.request_id = self.rid  # deprecated alias kept for old callers

            def rekey(self, rid: str) -> None:
                self.rid = rid
                self.request_id = self.rid  # deprecated alias


        def use(a: "Deep", b: "Alias") -> str:
            return f"{a.prompt}{a.frozen}{b.request_id}"


        @dataclasses.dataclass
        class Shared:
            ids: list[str]
            keys: list[str]
            flags: list[bool]


        @dataclasses.dataclass
        class PerLayer:
            ids: list[str]
            keys: list[str]
            flags: list[bool]
            layer: int


        def per_layer(shared: Shared, layer: int) -> PerLayer:
            return PerLayer(ids=shared.ids, keys=shared.keys, flags=shared.flags, layer=layer)


        def run(meta: PerLayer) -> int:
            return len(meta.ids) + len(meta.keys) + len(meta.flags) + meta.layer
    ''',
}


def test_traps_are_silent_and_rejected_with_the_reason(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, TRAPS)
    assert lint(tmp_path, cache_dir) == []
    rejected = {f.line: f.message for f in lint(tmp_path, cache_dir, "--omni-include-rejected=y")}
    assert all("(rejected: " in message for message in rejected.values())
    expectations = {
        27: "Struct message",  # copies out of a msgspec message
        45: "BaseModel message",  # pydantic
        49: "NamedTuple message",
        54: "(pickled)",
        70: "frozen dataclass",
        81: "read by reflection",
        90: "exists on the base threading.Thread",
        96: "documented compatibility alias",
        123: "copies references to the same mutable objects of Shared",  # lists shared, not copied
    }
    for line, reason in expectations.items():
        assert reason in rejected.get(line, ""), (line, rejected.get(line))


HIERARCHY_AND_READERS = {
    "pkg/__init__.py": "",
    "pkg/models/__init__.py": "",
    "pkg/models/base.py": '''
        class KvBudget:
            def __init__(self) -> None:
                self.blocks: list[int] = []
                self.free_blocks = len(self.blocks)

            def grow(self, count: int) -> None:
                self.blocks.extend(range(count))
                self.free_blocks = len(self.blocks)
    ''',
    "pkg/models/paged.py": '''
        from pkg.models.base import KvBudget


        class PagedKvBudget(KvBudget):
            def reserve(self) -> None:
                self.blocks.pop()
                self.free_blocks = len(self.blocks) - 1
    ''',
    "pkg/errors.py": '''
        class RemoteFailure(RuntimeError):
            def __init__(self, detail: str) -> None:
                self.detail = detail
                super().__init__(detail)

            def retry(self, detail: str) -> None:
                self.detail = detail
    ''',
    "pkg/runner.py": '''
        class Runner:
            def __init__(self, spec: dict) -> None:
                self.stage = None
                self.phase = "idle"
                self.pad_id = spec.get("pad_id", 0)
                self.items: list[int] = []
                self.view = self.items

            def reset(self, spec: dict) -> None:
                self.items = []
                self.view = self.items
                self.stage = None
                self.phase = "idle"
                self.pad_id = spec.get("pad_id", 0)


        class Tokens:
            def __init__(self) -> None:
                self.eos = "</s>"


        class OffloadServer:
            def __init__(self, port: int) -> None:
                self.port = port

            def serve(self) -> int:
                return self.port


        class Connector:
            def __init__(self) -> None:
                self.ready = False

            def start(self) -> None:
                self.server = OffloadServer(5555)  # the field keeps the server alive
                self.ready = True

            def is_ready(self) -> bool:
                return self.ready


        class Dispatcher:
            def __init__(self) -> None:
                self.expert_num = 0

            def dispatch(self, experts: list) -> dict:
                self.expert_num = len(experts)
                return {"expert_num": self.expert_num}


        def peek(runner: Runner, budget) -> tuple:
            return runner.view, budget.free_blocks
    ''',
    "pkg/wrappers.py": '''
        class ForwardingWrapper:
            def __init__(self, inner) -> None:
                object.__setattr__(self, "inner", inner)

            def __setattr__(self, name: str, value: object) -> None:
                setattr(self.inner, name, value)


        class StepWrapper(ForwardingWrapper):
            def step(self) -> None:
                self._cursor = 1
    ''',
    "docs/guide.md": "Each stage of the pipeline runs in order.\n\nThe phase is read as `runner.phase` by the dashboard.\n",
    "deploy/run.yaml": "description: every stage starts cold\n",
}


def test_hierarchy_exceptions_and_prose_readers(tmp_path: Path, cache_dir: Path) -> None:
    """A subclass writing the derived field rejects it (naming the class and line); an
    exception's field is medium; the bare word in prose is not a reader, `obj.x` is; a
    base forwarding `__setattr__` makes never-read fields unknowable."""
    write_project(tmp_path, HIERARCHY_AND_READERS)
    # Each field's own verdict (by default the unread fields of one class are one message: see the last test).
    findings = {(f.path, f.line): f for f in lint(tmp_path, cache_dir, "--omni-include-rejected=y", "--omni-granularity=member")}
    base = findings[("pkg/models/base.py", 5)].message
    assert "rejected: the subclass PagedKvBudget assigns .free_blocks (pkg/models/paged.py:8)" in base
    detail = findings[("pkg/errors.py", 4)]
    assert detail.confidence == "INFERENCE" and "RemoteFailure is an exception" in detail.message
    stage = findings[("pkg/runner.py", 4)]
    assert stage.confidence == "HIGH" and "docs/guide.md" not in stage.message and "deploy/run.yaml" not in stage.message
    phase = findings[("pkg/runner.py", 5)]
    assert phase.confidence == "INFERENCE" and "docs/guide.md:3 (doc)" in phase.message
    pad = findings[("pkg/runner.py", 6)]
    assert pad.confidence == "HIGH" and "is a call" not in pad.message  # `spec.get(...)` is a value, not a kept object
    view = findings[("pkg/runner.py", 8)]
    assert view.confidence == "INFERENCE" and "a bare copy of `self.items`" in view.message
    # An isolated constant written once in the constructor is lint: not an audit candidate.
    assert not [f for f in findings.values() if "Tokens.eos" in f.message]
    server = next(f for f in findings.values() if "Connector.server" in f.message)
    assert "(rejected: keeps OffloadServer(...) alive" in server.message
    # `{"expert_num": self.expert_num}`: the key string on that line does not hide the read.
    assert not [f for f in findings.values() if "Dispatcher.expert_num" in f.message]
    forwarded = findings[("pkg/wrappers.py", 12)].message  # the base forwards writes to the wrapped object
    assert "rejected: StepWrapper defines __setattr__ (through its base ForwardingWrapper)" in forwarded


def test_a_private_name_in_json_or_a_tests_reflection_reads_no_field(tmp_path: Path, cache_dir: Path) -> None:
    """`_last_batch` inside a JSON chat template is a word, not a read; `vars(obj)` in a test reads nothing production
    keeps: the field each step writes and nothing reads stays a candidate."""
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/engine.py": """
            class Engine:
                def __init__(self):
                    self.steps = 0

                def step(self, batch):
                    self._last_batch = list(batch)
                    self.steps += 1
                    return self.steps

            def main():
                return Engine().step([1])
        """,
        "pkg/templates/chat.json": '{"template": "{{ _last_batch }} and {{ messages }}"}\n',
        "tests/test_engine.py": "from pkg.engine import Engine\n\n\ndef test_fields():\n    assert vars(Engine())\n",
    })
    found = [f for f in lint(tmp_path, cache_dir) if f.path == "pkg/engine.py"]
    assert [(f.line, f.confidence) for f in found] == [(7, "HIGH")], [f.message for f in found]
    assert "Engine._last_batch" in found[0].message


def test_two_names_bound_to_one_object_at_construction(tmp_path: Path, cache_dir: Path) -> None:
    """`self.model_family = model_spec` and `self._model_spec = model_spec`, neither rebound: one object, two names.
    Not when one is rebound later (a reload), when the second is derived from the first (`spec.items[0]`), or
    in a torch module (tied weights are one module registered under two names on purpose)."""
    write_project(tmp_path, {"pkg/models.py": ALIASES})
    found = [(f.line, f.confidence) for f in lint(tmp_path, cache_dir)]
    assert found == [(ALIASES.splitlines().index("        self._model_spec = model_spec") + 1, "HIGH")]


ALIASES = '''\
import torch


class WhisperModel:
    def __init__(self, model_uid: str, model_spec, device=None):
        self.model_family = model_spec
        self._model_uid = model_uid
        self._model_spec = model_spec
        self._device = device

    def describe(self):
        return self.model_family.name, self._model_spec.path, self._model_uid, self._device


class EmbeddingModel:
    def __init__(self, model_family):
        self.model_family = model_family
        self._model_spec = model_family.model_specs[0]

    def describe(self):
        return self.model_family, self._model_spec


class Reloading:
    def __init__(self, spec):
        self.spec = spec
        self._spec = spec

    def reload(self, spec):
        self._spec = spec

    def describe(self):
        return self.spec, self._spec


class Tied(torch.nn.Module):
    def __init__(self, emb):
        super().__init__()
        self.embed = emb
        self.lm_head = emb

    def forward(self, x):
        return self.lm_head(self.embed(x))
'''


def test_a_running_task_bound_from_a_call_is_kept_alive_by_its_field(tmp_path: Path, cache_dir: Path) -> None:
    """`self._port, self._server_task = await start_server(app)`: asyncio keeps a task only weakly, so the unread
    field is its reference (rejected); an unread plain value beside it, written at run time, is still reported."""
    write_project(tmp_path, {"pkg/server.py": '''
        import asyncio


        async def start_server(app):
            return 8000, asyncio.create_task(app.serve())


        class Server:
            def __init__(self, app):
                self.app = app
                self._port = 0
                self._server_task = None
                self._last_error = None

            async def launch(self):
                self._port, self._server_task = await start_server(self.app)
                self._last_error = await self.app.check()

            def port(self):
                return self._port
    '''})
    rejected = {f.line: f for f in lint(tmp_path, cache_dir, "--omni-include-rejected=y")}
    task = next(f for f in rejected.values() if "_server_task" in f.message)
    assert task.confidence == "UNDEFINED" and "named as a running task or handle" in task.message
    assert any("_last_error" in f.message and f.confidence != "UNDEFINED" for f in rejected.values())


def test_a_mixin_field_a_subclass_combines_with_an_unread_third_party_base_is_not_reported(tmp_path: Path, cache_dir: Path) -> None:
    """`class OrpoTrainer(RlhfMixin, trl.ORPOTrainer)`: the third-party trainer's methods run on the same object and
    may read what the mixin sets (TRL reads `self.use_dpo_data_collator`); with that base unread, the fields are not
    reported. The same fields of a mixin only project classes combine stay reported."""
    write_project(tmp_path, {"pkg/trainers.py": '''
        import time

        from trl import ORPOTrainer as HfOrpoTrainer


        class RlhfMixin:
            def __init__(self, *args, **kwargs):
                self.use_dpo_data_collator = True
                self.label_pad_token_id = -100
                self.is_vision_model = False
                super().__init__(*args, **kwargs)

            def step(self):
                self.started_at = time.monotonic()


        class OrpoTrainer(RlhfMixin, HfOrpoTrainer):
            pass


        class PlainMixin:
            def __init__(self):
                self.seen_batches = 0

            def step(self):
                self.stepped_at = time.monotonic()


        class PlainTrainer(PlainMixin):
            pass
    ''', "pkg/main.py": '''
        from pkg.trainers import OrpoTrainer, PlainTrainer

        if __name__ == "__main__":
            OrpoTrainer().step()
            PlainTrainer().step()
    '''})
    found = lint(tmp_path, cache_dir, "--omni-include-rejected=y")
    combined = [f for f in found if "started_at" in f.message]
    plain = [f for f in found if "stepped_at" in f.message]
    assert combined and all(f.confidence == "UNDEFINED" for f in combined), found
    assert "combines RlhfMixin with trl.ORPOTrainer" in combined[0].message
    assert plain and plain[0].confidence == "HIGH", found


def test_an_upstream_base_a_subclass_combines_reads_the_mixins_field(tmp_path: Path, cache_dir: Path) -> None:
    """With the third-party base indexed, its reads are judged, not guessed: `prediction_step` reads
    `self.use_dpo_data_collator` on the trainer the mixin is part of (rejected); a field it never reads is reported."""
    write_project(tmp_path, {"upstream/trl/__init__.py": '''
        class ORPOTrainer:
            def prediction_step(self):
                return self.use_dpo_data_collator
    ''', "pkg/trainers.py": '''
        import time

        from trl import ORPOTrainer as HfOrpoTrainer


        class RlhfMixin:
            def step(self):
                self.use_dpo_data_collator = time.monotonic()
                self.stepped_at = time.monotonic()


        class OrpoTrainer(RlhfMixin, HfOrpoTrainer):
            pass
    ''', "pkg/main.py": '''
        from pkg.trainers import OrpoTrainer

        if __name__ == "__main__":
            OrpoTrainer().step()
    '''})
    found = lint(tmp_path, cache_dir, "--omni-upstream-paths=upstream", "--omni-exclude-globs=upstream/**",
                 "--omni-include-rejected=y")
    read = [f for f in found if "use_dpo_data_collator" in f.message]
    unread = [f for f in found if "stepped_at" in f.message]
    assert read and read[0].confidence == "UNDEFINED" and "upstream reads it" in read[0].message, found
    assert unread and unread[0].confidence == "HIGH", found


LAYERS = {
    "pkg/__init__.py": "",
    "pkg/client/__init__.py": "",
    "pkg/client/sources.py": '''
        class Discovery:
            def __init__(self, namespace: str, service: str, port: int) -> None:
                self.namespace = namespace
                self.service = service
                self.port = port

            def url(self) -> str:
                return f"http://{self.service}.{self.namespace}:{self.port}"
    ''',
    "pkg/driver/__init__.py": "",
    "pkg/driver/deploy.py": '''
        from pkg.client.sources import Discovery


        class Handle:
            def __init__(self, namespace: str, service: str, port: int) -> None:
                self.namespace = namespace
                self.service = service
                self.port = port

            def describe(self) -> str:
                return f"{self.namespace}/{self.service}:{self.port}"


        def endpoints(handle: Handle) -> str:
            source = Discovery(namespace=handle.namespace, service=handle.service, port=handle.port)
            return source.url() + handle.describe()
    ''',
}


def test_values_handed_down_across_a_layer_boundary_are_medium(tmp_path: Path, cache_dir: Path) -> None:
    """aibrix (round 13): the job driver builds the client's `K8sEndpointSliceDiscovery` from three fields of its
    `DeploymentHandle`; the client package imports nothing from the driver, so passing the handle would make the lower
    layer depend on the upper one: medium, saying so. Once the client already imports the driver, the doubt goes."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    write_project(tmp_path / "a", LAYERS)
    [found] = [f for f in lint(tmp_path / "a", cache_dir) if "is built with" in f.message]
    assert found.confidence == "INFERENCE" and "Discovery (pkg.client) imports nothing from pkg.driver" in found.message, found
    joined = {**LAYERS, "pkg/client/extra.py": "from pkg.driver.deploy import Handle\n\n\ndef show(handle: Handle) -> str:\n    return handle.describe()\n"}
    write_project(tmp_path / "b", joined)
    [found] = [f for f in lint(tmp_path / "b", cache_dir) if "is built with" in f.message]
    assert "imports nothing from" not in found.message, found


def test_fields_bound_to_a_local_rebound_in_between_are_no_alias(tmp_path: Path, cache_dir: Path) -> None:
    """Megatron-LM (round 15): `self.input_data = layout`, then `layout` is parsed and reshaped, then `self.layout =
    layout`: two objects, not one under two names; without the rebinding they are one (an alias)."""
    body = '''
        class Layout:
            def __init__(self, layout, size):
                self.input_data = layout
                {rebind}
                self.size = size
                self.layout = layout

            def rows(self):
                return self.layout, self.input_data, self.size
    '''
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    write_project(tmp_path / "a", {"pkg/__init__.py": "", "pkg/layout.py": body.format(rebind="layout = [list(r) for r in layout]")})
    assert not [f for f in lint(tmp_path / "a", cache_dir) if "hold the same object" in f.message]
    write_project(tmp_path / "b", {"pkg/__init__.py": "", "pkg/layout.py": body.format(rebind="print(layout)")})
    assert [f for f in lint(tmp_path / "b", cache_dir) if "hold the same object" in f.message]


def test_maps_filled_with_fresh_containers_under_the_same_keys_are_two_facts(tmp_path: Path, cache_dir: Path) -> None:
    """DeepSpeed (round 15): `self.param_to_partition_ids[i] = {}` beside `self.is_partition_reduced[i] = {}`: two new
    dicts per group, filled apart (lists of ids, booleans), not one fact under two names; maps given the same value
    (`len(v)`) under every key are."""
    body = '''
        class Optimizer:
            def __init__(self, groups):
                self.ids = {{}}
                self.reduced = {{}}
                for i, group in enumerate(groups):
                    self.ids[i] = {value}
                    self.reduced[i] = {value}

            def read(self, i):
                return self.ids[i], self.reduced[i]
    '''
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    write_project(tmp_path / "a", {"pkg/__init__.py": "", "pkg/opt.py": body.format(value="{}")})
    assert not [f for f in lint(tmp_path / "a", cache_dir) if "always holds what" in f.message]
    write_project(tmp_path / "b", {"pkg/__init__.py": "", "pkg/opt.py": body.format(value="len(group)")})
    assert [f for f in lint(tmp_path / "b", cache_dir) if "always holds what" in f.message]


def test_a_second_instance_built_from_the_first_is_a_copy_not_a_mirror(tmp_path: Path, cache_dir: Path) -> None:
    """DeepSpeed (round 15): `self.target_3d = model_3d_desc(pp_degree=self.src_3d.pp_degree, ...)` builds a second
    descriptor from the first: two roles (source and target) that start out equal, not duplicated ownership."""
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/desc.py": '''
            class Desc:
                def __init__(self, pp: int, tp: int, dp: int) -> None:
                    self.pp = pp
                    self.tp = tp
                    self.dp = dp


            class Checkpoint:
                def __init__(self, pp: int, tp: int, dp: int) -> None:
                    self.src = Desc(pp, tp, dp)
                    self.target = Desc(pp=self.src.pp, tp=self.src.tp, dp=self.src.dp)

                def reshape(self, pp: int) -> None:
                    self.target = Desc(pp=pp, tp=self.target.tp, dp=self.target.dp)
        ''',
    })
    assert not [f for f in lint(tmp_path, cache_dir) if "is built with" in f.message and f.confidence != "REJECTED"]


def test_the_unread_fields_of_one_class_are_one_change_hot_when_the_class_is_built_per_step(tmp_path: Path, cache_dir: Path) -> None:
    """LoRAX's `Seqlen`: four fields its constructor computes and nothing reads, one class built in every forward
    step. One message at the first field lists all four; each stays a member with the id a per-member run emits;
    the work is hot (the constructor runs per step), not "cold (in __init__)"."""
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/attention.py": '''
        import torch


        class Seqlen:
            def __init__(self, input_lengths, cache_lengths):
                self.input_lengths = input_lengths
                self.cache_lengths = cache_lengths
                self.cu_seqlen_q = torch.arange(input_lengths.shape[0] + 1)
                self.cu_seqlen_k = torch.cumsum(input_lengths, dim=0)
                self.max_q = int(input_lengths.max())


        class Runner:
            def forward(self, input_lengths, cache_lengths):
                seqlen = Seqlen(input_lengths, cache_lengths)
                return seqlen.input_lengths + seqlen.cache_lengths
    '''})
    findings = lint(tmp_path, cache_dir)
    assert [(f.line, f.confidence) for f in findings] == [(9, "HIGH")]
    assert "Seqlen has 3 fields written but never read (cu_seqlen_q, cu_seqlen_k, max_q)" in findings[0].message
    args = ["--disable=all", f"--enable={SYMBOL}", "pkg"]
    folded = omni_json(args, tmp_path, cache_dir)["candidates"]
    assert len(folded) == 1 and folded[0]["heat"] == "hot" and "Seqlen(...) called from Runner.forward()" in folded[0]["heat_reason"]
    single = omni_json(["--omni-granularity=member", *args], tmp_path, cache_dir)["candidates"]
    assert len(single) == 3
    assert sorted(m["id"] for m in folded[0]["members"]) == sorted(c["id"] for c in single)


def test_unread_fields_medium_each_are_one_medium_change(tmp_path: Path, cache_dir: Path) -> None:
    """vllm-omni's `PipelineGroupCoordinator`: unread fields each medium for its own doubt (here: an exception's
    fields, which a caller outside may read off the caught error). Their change stays medium and says the doubt."""
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/errors.py": '''
        class TransferFailed(Exception):
            def __init__(self, request_id, stage, attempts):
                super().__init__(request_id)
                self.request_id = request_id
                self.stage = stage
                self.attempts = attempts


        def fail(request_id):
            raise TransferFailed(request_id, "recv", 3)
    '''})
    each = {f.line: f.confidence for f in lint(tmp_path, cache_dir, "--omni-granularity=member")}
    assert set(each.values()) == {"INFERENCE"} and len(each) == 3, each
    [folded] = lint(tmp_path, cache_dir)
    assert folded.confidence == "INFERENCE" and "TransferFailed is an exception" in folded.message, folded.message
