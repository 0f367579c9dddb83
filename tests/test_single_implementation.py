"""single-implementation-abstraction on a small project: what is counted, rejected and downgraded.

One project holds a case per rule; the module's tests share one real pylint run over it
(plus a `--confidence=HIGH` run and an editor-buffer run). Rejections must name a
resolved reason; name collisions and test doubles never reject.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from conftest import Finding, enable_args, run_pylint

SYMBOL = "single-implementation-abstraction"

FILES = {
    "pyproject.toml": """
        [project]
        name = "proj"
        [project.entry-points."proj.sinks"]
        disk = "proj.sinks:DiskSink"
        [tool.pylint.pylint-omni]
        omni-upstream-paths = [".upstream"]
    """,
    "proj/__init__.py": "",
    "proj/chain.py": """
        from abc import ABC, abstractmethod

        class Base(ABC):
            @abstractmethod
            def run(self) -> int: ...

        class _Middle(Base):
            def run(self) -> int:
                return self.step()

            @abstractmethod
            def step(self) -> int: ...
    """,
    "proj/leaf.py": """
        from proj.chain import _Middle

        class Leaf(_Middle):
            def step(self) -> int:
                return 1
    """,
    "proj/two.py": """
        from abc import ABC, abstractmethod

        class Picker(ABC):
            @abstractmethod
            def pick(self) -> int: ...

        class First(Picker):
            def pick(self) -> int:
                return 0
    """,
    "proj/two_more.py": """
        from proj.two import First

        class Last(First):
            def pick(self) -> int:
                return -1

        PICKERS = [First(), Last()]
    """,
    "proj/warm.py": """
        from abc import ABC, abstractmethod

        class Warmup(ABC):
            @abstractmethod
            def run(self) -> int: ...

        class _Graphs(Warmup):
            def run(self) -> int:
                return self.capture()

            def capture(self) -> int:
                return 1

        class Piecewise(_Graphs):
            def capture(self) -> int:
                return 2

        def warm() -> int:
            return Piecewise().run()
    """,
    "proj/seam.py": """
        from abc import ABC, abstractmethod

        class Clock(ABC):
            @abstractmethod
            def now(self) -> float: ...

        class SystemClock(Clock):
            def now(self) -> float:
                return 0.0
    """,
    "tests/test_seam.py": """
        from proj.seam import Clock

        class FakeClock(Clock):
            def now(self) -> float:
                return 1.0
    """,
    "proj/sinks.py": """
        from abc import ABC, abstractmethod

        class Sink(ABC):
            @abstractmethod
            def put(self, item: int) -> None: ...

        class DiskSink(Sink):
            def put(self, item: int) -> None:
                print(item)
    """,
    "proj/policies.py": """
        from abc import ABC, abstractmethod

        class Documented(ABC):
            @abstractmethod
            def decide(self) -> bool: ...

        class OnlyDocumented(Documented):
            def decide(self) -> bool:
                return True

        class Archived(ABC):
            @abstractmethod
            def decide(self) -> bool: ...

        class OnlyArchived(Archived):
            def decide(self) -> bool:
                return False

        class Mentioned(ABC):
            @abstractmethod
            def decide(self) -> bool: ...

        class OnlyMentioned(Mentioned):
            def decide(self) -> bool:
                return False
    """,
    "docs/design/module/policies.md": """
        ---
        title: Policies
        status: current
        ---
        `Documented` is the extension point for out-of-tree policies.
    """,
    "docs/design/module/old.md": """
        ---
        title: Old policies
        status: archived
        ---
        `Archived` was an extension point for plugins.
    """,
    "docs/usage.md": """
        # Usage

        Pass a `Mentioned` when you build the engine.
    """,
    "proj/platforms/__init__.py": "",
    "proj/platforms/interface.py": """
        from abc import ABC, abstractmethod

        class Device(ABC):
            @abstractmethod
            def name(self) -> str: ...
    """,
    "proj/platforms/cuda/__init__.py": "",
    "proj/platforms/cuda/device.py": """
        from proj.platforms.interface import Device

        class CudaDevice(Device):
            def name(self) -> str:
                return "cuda"
    """,
    "proj/runners/__init__.py": "",
    "proj/runners/base.py": """
        from abc import ABC, abstractmethod

        class RunnerBase(ABC):
            @abstractmethod
            def dummy_run(self) -> int: ...
    """,
    "proj/runners/gpu_runner.py": """
        from proj.runners.base import RunnerBase

        class GPURunner(RunnerBase):
            def dummy_run(self) -> int:
                return 0
    """,
    "proj/runners/npu/__init__.py": "",
    "proj/backends/__init__.py": "",
    "proj/backends/cuda/__init__.py": "",
    "proj/backends/cuda/step.py": """
        from abc import ABC, abstractmethod

        class StepUpdater(ABC):
            @abstractmethod
            def update(self) -> None: ...

        class GatedUpdater(StepUpdater):
            def update(self) -> None:
                return None
    """,
    "proj/holders.py": """
        import torch

        class CacheAware(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.cache_enabled = False

        class Block(CacheAware):
            def forward(self, x):
                return x if self.cache_enabled else x * 2

        class HandedOut:
            kind = "plain"

        class Special(HandedOut):
            def go(self) -> str:
                return self.kind

        def holder_class() -> type:
            return HandedOut
    """,
    "proj/models.py": """
        class RootModel:
            def forward(self, x: int) -> int:
                return x * self.scale

        class Configured(RootModel):
            scale = 2

        class Tuned(Configured):
            scale = 3
    """,
    "proj/eviction.py": """
        class CacheManager:
            \"\"\"An interface written with empty methods.\"\"\"

            def alloc(self, n: int) -> int:
                pass

            def release(self, handle: int) -> None:
                pass

        class InMemoryCache(CacheManager):
            def alloc(self, n: int) -> int:
                return n

            def release(self, handle: int) -> None:
                return None

        class EvictionBase:
            def evict(self) -> bool:
                raise NotImplementedError

        class Recompute(EvictionBase):
            def __init__(self) -> None:
                self.evict = self._evict_default

            def _evict_default(self) -> bool:
                return True

        def build_helper(kind: str) -> Recompute:
            if kind == "copy":
                kind = "recompute"
            if kind == "recompute":
                return Recompute()
            raise TypeError(kind)

        HELPER = build_helper("recompute")
    """,
    "proj/proto.py": """
        from typing import Protocol

        class Detokenizer(Protocol):
            def decode(self, ids: list[int]) -> str: ...

        class BaseDetokenizer:
            def decode(self, ids: list[int]) -> str:
                return str(ids)

        class ByteDetokenizer(BaseDetokenizer):
            def decode(self, ids: list[int]) -> str:
                return bytes(ids).decode()
    """,
    "proj/statics.py": """
        class Banner:
            \"\"\"The startup line.\"\"\"

            @staticmethod
            def render(name: str) -> str:
                return name

        class Twice:
            @staticmethod
            def render(name: str) -> str:
                return name

        def start() -> str:
            return Banner.render("x") + Twice.render("a") + Twice.render("b")
    """,
    "proj/transport.py": """
        from abc import ABC, abstractmethod

        class Transport(ABC):
            @abstractmethod
            def send(self, data: bytes) -> int: ...

        class TcpTransport(Transport):
            def send(self, data: bytes) -> int:
                return len(data)

        def build_transport(cfg: dict) -> Transport:
            return cfg.get("adapter_cls", TcpTransport)()
    """,
    "proj/audio.py": """
        from abc import ABC, abstractmethod

        class SpeechAdapter(ABC):
            @abstractmethod
            def adapt(self, wave: bytes) -> list[float]: ...

        class WhisperAdapter(SpeechAdapter):
            def adapt(self, wave: bytes) -> list[float]:
                return [float(b) for b in wave]
    """,
    "proj/workers.py": """
        from abc import ABC, abstractmethod

        class StageWorker(ABC):
            @abstractmethod
            def execute(self) -> None: ...

        class ARWorker(StageWorker):
            def execute(self) -> None:
                return None
    """,
    "proj/samplers.py": """
        from abc import ABC, abstractmethod

        class SamplerBase(ABC):
            @abstractmethod
            def sample(self) -> int: ...

        class TopPSampler(SamplerBase):
            def sample(self) -> int:
                return 0
    """,
    "deploy/stages.yaml": """
        stages:
          - worker_cls: proj.workers.ARWorker
            sampler: TopPSampler
    """,
    "proj/layouts.py": """
        from abc import ABC, abstractmethod

        LAYOUTS: dict = {}
        KERNELS: dict = {}

        def register_layout(name: str):
            def wrap(cls):
                LAYOUTS[name] = cls
                return cls
            return wrap

        def register_kernel(name: str):
            def wrap(cls):
                KERNELS[name] = cls
                return cls
            return wrap

        class Layout(ABC):
            @abstractmethod
            def shape(self) -> tuple: ...

        @register_layout("paged")
        class Paged(Layout):
            def shape(self) -> tuple:
                return (1,)

        def layout(name: str) -> Layout:
            return LAYOUTS[name]()

        class Kernel(ABC):
            @abstractmethod
            def launch(self) -> None: ...

        @register_kernel("fused")
        class FusedKernel(Kernel):
            def launch(self) -> None:
                return None
    """,
    ".upstream/upkg/__init__.py": "",
    ".upstream/upkg/engine.py": """
        class ExecutorBase:
            def collective_rpc(self, method: str) -> list:
                raise NotImplementedError

        def run_step(executor: ExecutorBase) -> list:
            return executor.collective_rpc("step")
    """,
    "proj/up.py": """
        from upkg.engine import ExecutorBase

        class OmniExecutor(ExecutorBase):
            def collective_rpc(self, method: str) -> list:
                raise NotImplementedError

        class LocalExecutor(OmniExecutor):
            def collective_rpc(self, method: str) -> list:
                return [method]

        class Extra(ExecutorBase):
            def local_only(self) -> int:
                raise NotImplementedError

        class OnlyExtra(Extra):
            def local_only(self) -> int:
                return 1
    """,
    "proj/factory.py": """
        import argparse

        class Greedy:
            pass

        class TopK:
            pass

        def one_choice(kind: str) -> Greedy:
            if kind != "greedy":
                raise ValueError(kind)
            return Greedy()

        def mapped_choice(kind: str) -> Greedy:
            return {"greedy": Greedy}[kind]()

        def two_choices(kind: str) -> Greedy | TopK:
            if kind == "greedy":
                return Greedy()
            if kind == "top-k":
                return TopK()
            raise ValueError(kind)

        def from_checkpoint(config) -> Greedy:
            model_type = config.model_type
            if model_type == "greedy":
                return Greedy()
            raise NotImplementedError(model_type)

        def validated(output) -> Greedy:
            data = output.data
            if data.ndim != 1:
                raise ValueError("a 1-D vector")
            return Greedy()

        def from_cli(kind: str) -> Greedy:
            if kind == "greedy":
                return Greedy()
            raise ValueError(kind)

        def handed_down(kind: str) -> Greedy:
            if kind == "greedy":
                return Greedy()
            raise ValueError(kind)

        def through(kind: str) -> Greedy:
            return handed_down(kind)

        def untraced(kind: str) -> Greedy:
            if kind == "greedy":
                return Greedy()
            raise ValueError(kind)

        def main(settings) -> None:
            args = argparse.ArgumentParser().parse_args()
            one_choice("greedy")
            from_cli(args.kind)
            through("greedy")
            untraced(settings.kind)
    """,
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("single-impl")
    for relpath, text in FILES.items():
        target = root / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(dedent(text).lstrip())
    return root


def lint(project: Path, *extra: str, stdin: str | None = None) -> dict[tuple[str, int], Finding]:
    args = [*enable_args([SYMBOL]), *extra]
    if stdin is None:
        args.append("proj")
    code, findings, stderr = run_pylint(args, cwd=project, stdin=stdin, cache_dir=project / ".omni-cache")
    assert "Traceback" not in stderr, stderr
    assert code & 1 == 0 and code & 32 == 0, stderr
    return {(f.path, f.line): f for f in findings if f.symbol == SYMBOL}


@pytest.fixture(scope="module")
def found(project: Path) -> dict[tuple[str, int], Finding]:
    return lint(project, "--omni-include-rejected=y")


def test_chain_is_counted_transitively_and_reported_once(found: dict[tuple[str, int], Finding]) -> None:
    top = found[("proj/chain.py", 3)]
    assert top.confidence == "HIGH"
    assert "one implementation, Leaf (proj/leaf.py:3) (through _Middle)" in top.message
    assert ("proj/chain.py", 7) not in found  # the middle link is covered by the top


def test_a_created_subclass_of_a_subclass_is_a_second_implementation(found: dict[tuple[str, int], Finding]) -> None:
    assert ("proj/two.py", 3) not in found


def test_a_chain_whose_only_created_class_is_its_leaf_is_one_implementation(found: dict[tuple[str, int], Finding]) -> None:
    chain = found[("proj/warm.py", 3)]
    assert chain.confidence == "HIGH"
    assert "has one subclass chain, _Graphs -> Piecewise, and only Piecewise is created" in chain.message
    assert "fold Warmup, _Graphs into Piecewise" in chain.message


@pytest.mark.parametrize(
    ("where", "reason"),
    [
        (("proj/sinks.py", 3), "entry-point group 'proj.sinks' names proj.sinks.DiskSink"),
        (("proj/policies.py", 3), "an active design contract names it as an extension point (docs/design/module/policies.md:5)"),
        (("proj/platforms/interface.py", 3), "vendor backends live beside it (proj/platforms/cuda)"),
        (("proj/runners/base.py", 3), "GPURunner is gpu code (proj/runners/gpu_runner.py) beside another vendor's (proj/runners/npu)"),
        (("proj/transport.py", 3), "configuration picks the class: `adapter_cls` is read at proj/transport.py:12"),
        (("proj/workers.py", 3), "the deploy configuration picks the class: `worker_cls: ARWorker` at deploy/stages.yaml:2"),
        (("proj/layouts.py", 18), "registered in register_layout (proj/layouts.py:22), which is read at proj/layouts.py:28"),
        (("proj/up.py", 3), "its abstract methods (collective_rpc) are hooks of upstream code"),
        (("proj/holders.py", 12), "HandedOut is created or handed out as a class at proj/holders.py:20"),
    ],
)
def test_rejected_for_a_resolved_reason(found: dict[tuple[str, int], Finding], where: tuple[str, int], reason: str) -> None:
    finding = found[where]
    assert finding.confidence == "UNDEFINED"
    assert f"rejected: {reason}" in finding.message


def test_a_test_double_is_not_a_second_implementation(found: dict[tuple[str, int], Finding]) -> None:
    seam = found[("proj/seam.py", 3)]
    assert seam.confidence == "INFERENCE"
    assert "unsure: FakeClock (tests/test_seam.py:3) is a test double, not a second implementation" in seam.message


def test_a_same_named_key_of_another_subsystem_is_no_evidence(found: dict[tuple[str, int], Finding]) -> None:
    assert found[("proj/audio.py", 3)].confidence == "HIGH"  # `adapter_cls` carries transports only


@pytest.mark.parametrize(
    ("where", "doubt"),
    [
        (("proj/samplers.py", 3), "the name TopPSampler appears in deploy/stages.yaml:3 (yaml-value)"),
        (("proj/layouts.py", 30), "registered in register_kernel (proj/layouts.py:34), though nothing the index can follow reads it"),
    ],
)
def test_name_only_mechanisms_are_doubts(found: dict[tuple[str, int], Finding], where: tuple[str, int], doubt: str) -> None:
    finding = found[where]
    assert finding.confidence == "INFERENCE"
    assert f"unsure: {doubt}" in finding.message


def test_archived_pages_plain_mentions_and_unindexed_third_party_bases_do_not_reject(found: dict[tuple[str, int], Finding]) -> None:
    assert found[("proj/policies.py", 11)].confidence == "HIGH"  # Archived
    assert found[("proj/policies.py", 19)].confidence == "HIGH"  # Mentioned in docs/usage.md
    assert found[("proj/up.py", 11)].confidence == "HIGH"  # upstream defines no `local_only` hook
    assert found[("proj/backends/cuda/step.py", 3)].confidence == "HIGH"  # both inside the one cuda backend


def test_data_holder_base(found: dict[tuple[str, int], Finding]) -> None:
    holder = found[("proj/holders.py", 3)]
    assert holder.confidence == "HIGH"
    assert "Base class CacheAware only stores cache_enabled for its one subclass, Block (proj/holders.py:8)" in holder.message
    assert ("proj/models.py", 5) not in found  # a configured subclass of a project class is not a data-holder base


def test_empty_interfaces_attribute_implementations_and_renamed_kinds(found: dict[tuple[str, int], Finding]) -> None:
    assert "Base class CacheManager has one implementation, InMemoryCache" in found[("proj/eviction.py", 1)].message
    assert found[("proj/eviction.py", 1)].confidence == "HIGH"
    created = found[("proj/eviction.py", 17)]  # the created leaf implements `evict` through an attribute
    assert created.confidence == "HIGH" and "one implementation, Recompute" in created.message
    renamed = found[("proj/eviction.py", 28)]  # `if kind == "copy": kind = "recompute"` renames, it does not choose
    assert renamed.confidence == "HIGH" and "Factory build_helper() has one choice, 'recompute' -> Recompute" in renamed.message


def test_restating_protocol_and_static_holder(found: dict[tuple[str, int], Finding]) -> None:
    protocol = found[("proj/proto.py", 3)]
    assert protocol.confidence == "HIGH"
    assert "Protocol Detokenizer restates the methods of BaseDetokenizer (proj/proto.py:6)" in protocol.message
    static = found[("proj/statics.py", 1)]
    assert static.confidence == "HIGH"
    assert "Class Banner only wraps the static method render(), called once (proj/statics.py:14)" in static.message
    assert ("proj/statics.py", 8) not in found  # called twice


def test_factories_are_judged_by_their_callers(found: dict[tuple[str, int], Finding]) -> None:
    literal = found[("proj/factory.py", 9)]
    assert literal.confidence == "HIGH"
    assert "Factory one_choice() has one choice, 'greedy' -> Greedy" in literal.message
    assert "every caller passes a literal kind ('greedy'; 1 call site)" in literal.message
    assert "no resolved caller" in found[("proj/factory.py", 14)].message
    assert found[("proj/factory.py", 14)].confidence == "INFERENCE"
    assert ("proj/factory.py", 17) not in found  # two choices
    assert "the kind is read from outside data" in found[("proj/factory.py", 24)].message
    assert found[("proj/factory.py", 24)].confidence == "UNDEFINED"
    assert ("proj/factory.py", 30) not in found  # `data.ndim != 1` validates; it chooses no kind
    assert "the kind comes from user input at proj/factory.py:57" in found[("proj/factory.py", 36)].message
    assert found[("proj/factory.py", 41)].confidence == "HIGH"  # the literal reaches it through `through()`
    untraced = found[("proj/factory.py", 49)]
    assert untraced.confidence == "INFERENCE"
    assert "the kind passed at proj/factory.py:59 cannot be traced" in untraced.message


def test_confidence_high_shows_only_high_candidates(project: Path) -> None:
    high = lint(project, "--confidence=HIGH")
    assert set(high) == {
        ("proj/chain.py", 3), ("proj/warm.py", 3), ("proj/policies.py", 11), ("proj/policies.py", 19),
        ("proj/audio.py", 3), ("proj/up.py", 11), ("proj/backends/cuda/step.py", 3), ("proj/holders.py", 3),
        ("proj/proto.py", 3), ("proj/statics.py", 1), ("proj/factory.py", 9), ("proj/factory.py", 41),
        ("proj/eviction.py", 1), ("proj/eviction.py", 17), ("proj/eviction.py", 28),
    }


def test_editor_buffer_with_a_second_implementation_silences_the_base(project: Path) -> None:
    buffer = (project / "proj/seam.py").read_text().replace("0.0", "0.0\n\nclass WallClock(Clock):\n    def now(self) -> float:\n        return 2.0\n")
    found = lint(project, "--omni-include-rejected=y", "--from-stdin", "proj/seam.py", stdin=buffer)
    assert ("proj/seam.py", 3) not in found


def test_a_base_other_code_checks_or_types_a_field_with_is_a_contract(tmp_path: Path) -> None:
    """An `isinstance(x, Base)` on objects handed in, or a config field typed with the base: implementations may come
    from outside, so the one in the tree does not make it foldable for sure (medium, naming the contract)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/tokenizers.py": (
            "from abc import ABC, abstractmethod\n\n\nclass TokenizerWrapper(ABC):\n    @abstractmethod\n"
            "    def encode(self, text):\n        ...\n\n\nclass HFTokenizer(TokenizerWrapper):\n"
            "    def encode(self, text):\n        return [1]\n"
        ),
        "pkg/config.py": (
            "from typing import Optional, Union\nfrom pydantic import BaseModel\nfrom pkg.tokenizers import TokenizerWrapper\n\n\n"
            "class ModelConfig(BaseModel):\n    tokenizer: Optional[Union[str, TokenizerWrapper]] = None\n"
        ),
        "pkg/main.py": (
            "from pkg.config import ModelConfig\nfrom pkg.tokenizers import HFTokenizer\n\n\n"
            "def main():\n    return ModelConfig(tokenizer=HFTokenizer()).tokenizer\n\n\nif __name__ == '__main__':\n    main()\n"
        ),
    }
    for relpath, text in files.items():
        (tmp_path / relpath).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relpath).write_text(text)
    _, findings, stderr = run_pylint([*enable_args([SYMBOL]), "pkg"], cwd=tmp_path, cache_dir=tmp_path / ".omni-cache")
    assert "Traceback" not in stderr, stderr
    found = [f for f in findings if f.symbol == SYMBOL and f.path == "pkg/tokenizers.py"]
    assert [(f.line, f.confidence) for f in found] == [(4, "INFERENCE")], found
    assert "a field is typed with it (pkg/config.py:7)" in found[0].message


def test_a_validating_model_typed_as_a_field_elsewhere_is_built_from_input(tmp_path: Path) -> None:
    """A pydantic data holder with one subclass is still created by pydantic wherever another model types a field
    with it (`short: BackendConfig`): rejected, naming that field. The holder nothing types stays a candidate."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "schemas.py").write_text(dedent('''
        from pydantic import BaseModel


        class BackendConfig(BaseModel):
            model_uid: str
            max_context_tokens: int = 0


        class DynamicBackendConfig(BackendConfig):
            id: str


        class BackendsConfig(BaseModel):
            short: BackendConfig


        class PromptBase(BaseModel):
            model: str
            prompt: str


        class Completion(PromptBase):
            max_tokens: int = 16
    ''').lstrip())
    (tmp_path / "pkg" / "use.py").write_text(
        "from pkg.schemas import BackendsConfig, Completion, DynamicBackendConfig\n\n\n"
        "def load(data):\n    return BackendsConfig(**data), Completion(**data), DynamicBackendConfig(**data)\n"
    )
    _, findings, stderr = run_pylint([*enable_args([SYMBOL]), "--omni-include-rejected=y", "pkg"], cwd=tmp_path,
                                     cache_dir=tmp_path / ".omni-cache")
    assert "Traceback" not in stderr, stderr
    found = {f.line: f for f in findings if f.symbol == SYMBOL}
    assert found[4].confidence == "UNDEFINED"
    assert "(rejected: BackendConfig is the annotated type at" in found[4].message
    assert found[17].confidence == "HIGH"


def test_a_dataclass_base_beside_other_bases_is_part_of_the_constructor(tmp_path: Path) -> None:
    """`@dataclass class EmbeddingRequest(RequestConfig, EmbeddingFields)`: the generated `__init__` takes the last
    base's fields first, so folding `EmbeddingFields` into the subclass moves `input` and `model` after
    RequestConfig's defaulted fields (a TypeError at import) — rejected. A dataclass base of a subclass with no other
    base stays a candidate."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "protocol.py").write_text(dedent('''
        from dataclasses import dataclass


        @dataclass
        class RequestConfig:
            max_tokens: int = 16


        @dataclass
        class EmbeddingFields:
            input: str
            model: str


        @dataclass
        class EmbeddingRequest(RequestConfig, EmbeddingFields):
            encoding: str = "float"


        @dataclass
        class PromptFields:
            prompt: str


        @dataclass
        class CompletionRequest(PromptFields):
            stream: bool = False
    ''').lstrip())
    (tmp_path / "pkg" / "use.py").write_text(
        "from pkg.protocol import CompletionRequest, EmbeddingRequest\n\n\n"
        "def load(data):\n    return EmbeddingRequest(**data), CompletionRequest(**data)\n"
    )
    _, findings, stderr = run_pylint([*enable_args([SYMBOL]), "--omni-include-rejected=y", "pkg"], cwd=tmp_path,
                                     cache_dir=tmp_path / ".omni-cache")
    assert "Traceback" not in stderr, stderr
    found = {f.line: f for f in findings if f.symbol == SYMBOL}
    assert found[10].confidence == "UNDEFINED" and "EmbeddingFields is a dataclass base of EmbeddingRequest beside" in found[10].message
    assert found[5].confidence == "UNDEFINED"  # RequestConfig too: either fold reorders the constructor
    assert found[21].confidence == "HIGH", found


def test_a_protocol_the_prose_plans_more_implementations_of_is_medium(tmp_path: Path) -> None:
    """aibrix's `SchedulingPolicy` (round 13): one implementation today, and the scheduler's docstring says
    "``SchedulingPolicy`` (FIFO now, priority later)": a seam kept on purpose, so the finding is medium and cites the
    plan; the same Protocol without the plan stays high."""
    files = {
        "pkg/__init__.py": "",
        "pkg/policy.py": (
            "from typing import Protocol\n\n\nclass SchedulingPolicy(Protocol):\n    def next(self) -> str: ...\n\n\n"
            "class FIFOScheduling:\n    def next(self) -> str:\n        return 'a'\n"
        ),
        "pkg/main.py": (
            '"""The scheduler: picks jobs through a ``SchedulingPolicy`` (FIFO now, priority later)."""\n'
            "from pkg.policy import FIFOScheduling, SchedulingPolicy\n\n\n"
            "def main(policy: SchedulingPolicy = FIFOScheduling()):\n    return policy.next()\n\n\n"
            "if __name__ == '__main__':\n    main()\n"
        ),
    }
    for relpath, text in files.items():
        (tmp_path / relpath).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relpath).write_text(text)
    _, findings, stderr = run_pylint([*enable_args([SYMBOL]), "pkg"], cwd=tmp_path, cache_dir=tmp_path / ".omni-cache")
    assert "Traceback" not in stderr, stderr
    [planned] = [f for f in findings if f.symbol == SYMBOL and f.path == "pkg/policy.py"]
    assert planned.confidence == "INFERENCE" and "pkg/main.py:1 plans other implementations" in planned.message, planned
    (tmp_path / "pkg" / "main.py").write_text(files["pkg/main.py"].replace(" (FIFO now, priority later)", ""))
    _, findings, stderr = run_pylint([*enable_args([SYMBOL]), "pkg"], cwd=tmp_path, cache_dir=tmp_path / ".omni-cache")
    [plain] = [f for f in findings if f.symbol == SYMBOL and f.path == "pkg/policy.py"]
    assert plain.confidence == "HIGH", plain


def test_folding_a_base_counts_the_lines_that_go_not_the_code_that_moves(tmp_path: Path) -> None:
    """TorchServe's metrics cache base: 300 lines of shared code and a few declarations its one implementation
    provides. Folding it deletes the statement, the docstring, the declarations and the bodies the implementation
    overrides without `super()`; the shared methods move. The benefit (what the ranking weighs) is what goes."""
    from test_change_sets import omni_json, write

    shared = "".join(f"    def add_{n}(self, name):\n        return self._get({n}, name)\n\n" for n in range(20))
    root = write(tmp_path / "proj", {
        "pkg/__init__.py": "",
        "pkg/cache.py": (
            "import abc\n\n\nclass MetricCacheAbstract(abc.ABC):\n    \"\"\"A metrics cache.\"\"\"\n\n"
            "    def __init__(self, path):\n        self.path = path\n\n"
            "    @abc.abstractmethod\n    def _get(self, kind, name):\n        pass\n\n"
            "    def flush(self):\n        return None\n\n" + shared
        ),
        "pkg/yaml_cache.py": (
            "from pkg.cache import MetricCacheAbstract\n\n\nclass YamlCache(MetricCacheAbstract):\n"
            "    def __init__(self, path):\n        super().__init__(path)\n\n"
            "    def _get(self, kind, name):\n        return (kind, name)\n\n"
            "    def flush(self):\n        return self.path\n"
        ),
        "pkg/main.py": "from pkg.yaml_cache import YamlCache\n\n\nif __name__ == '__main__':\n    YamlCache('m.yaml').add_1('x')\n",
    })
    [finding] = omni_json(["--disable=all", "--enable=single-implementation-abstraction", "pkg"], root, tmp_path / "cache")["candidates"]
    # The statement, the docstring, `_get` (a declaration) and `flush` (overridden without super()); not `__init__`.
    assert finding["benefit_lines"] == 1 + 1 + 3 + 2, finding["benefit"]
    assert "the rest moves into YamlCache" in finding["benefit"]
