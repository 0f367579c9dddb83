"""single-implementation-abstraction on a small project: what is counted, rejected and downgraded.

One project holds a case per rule; each test is one real pylint run over it.
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
    "proj/factory.py": """
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
def with_rejected(project: Path) -> dict[tuple[str, int], Finding]:
    return lint(project, "--omni-include-rejected=y")


def test_chain_is_counted_transitively_and_reported_once(with_rejected: dict[tuple[str, int], Finding]) -> None:
    top = with_rejected[("proj/chain.py", 3)]
    assert top.confidence == "HIGH"
    assert "one implementation, Leaf (proj/leaf.py:3) (through _Middle)" in top.message
    assert ("proj/chain.py", 7) not in with_rejected  # the middle link is covered by the top


def test_subclass_of_subclass_is_a_second_implementation(with_rejected: dict[tuple[str, int], Finding]) -> None:
    assert ("proj/two.py", 3) not in with_rejected


@pytest.mark.parametrize(
    ("where", "reason"),
    [
        (("proj/seam.py", 3), "a test seam: FakeClock (tests/test_seam.py:3) subclasses it"),
        (("proj/sinks.py", 3), "entry-point group 'proj.sinks' names proj.sinks.DiskSink"),
        (("proj/policies.py", 3), "an active design contract names it as an extension point or boundary (docs/design/module/policies.md:5)"),
        (("proj/platforms/interface.py", 3), "proj/platforms/interface.py lives under platforms/: hardware vendors plug in in parallel"),
    ],
)
def test_rejected_with_the_mechanism_named(
    with_rejected: dict[tuple[str, int], Finding], where: tuple[str, int], reason: str
) -> None:
    finding = with_rejected[where]
    assert finding.confidence == "UNDEFINED"
    assert f"rejected: {reason}" in finding.message


def test_archived_pages_and_plain_doc_mentions_do_not_reject(with_rejected: dict[tuple[str, int], Finding]) -> None:
    assert with_rejected[("proj/policies.py", 11)].confidence == "HIGH"  # Archived
    assert with_rejected[("proj/policies.py", 19)].confidence == "HIGH"  # Mentioned in docs/usage.md


def test_single_branch_factories(with_rejected: dict[tuple[str, int], Finding]) -> None:
    guard = with_rejected[("proj/factory.py", 7)]
    assert guard.confidence == "INFERENCE"
    assert "Factory one_choice() has one choice, 'greedy' -> Greedy" in guard.message
    assert with_rejected[("proj/factory.py", 12)].confidence == "INFERENCE"
    assert ("proj/factory.py", 15) not in with_rejected
    checkpoint = with_rejected[("proj/factory.py", 22)]
    assert checkpoint.confidence == "INFERENCE"
    assert "the kind is read from outside data" in checkpoint.message
    assert ("proj/factory.py", 27) not in with_rejected  # `data.ndim != 1` validates; it chooses no kind


def test_confidence_high_shows_only_high_candidates(project: Path) -> None:
    high = lint(project, "--confidence=HIGH")
    assert set(high) == {("proj/chain.py", 3), ("proj/policies.py", 11), ("proj/policies.py", 19)}


def test_editor_buffer_with_a_second_implementation_silences_the_base(project: Path) -> None:
    buffer = (project / "proj/seam.py").read_text().replace("0.0", "0.0\n\nclass WallClock(Clock):\n    def now(self) -> float:\n        return 2.0\n")
    found = lint(project, "--omni-include-rejected=y", "--from-stdin", "proj/seam.py", stdin=buffer)
    assert ("proj/seam.py", 3) not in found
