"""The upstream index reads only the modules the project's imports run, and is shared per version and imports.

The modules the project's imports reach are read once for the questions about them (who
reads a name, which classes exist: `upstream.names`, the summary); the per-file facts of
the families (the copies' fingerprints, the heaviest) are made only for the files a
family asks about, and are the very facts a scan of the whole package made before.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from io import StringIO
from pathlib import Path

import pytest
from pylint.lint import Run
from pylint.reporters import JSON2Reporter

from conftest import enable_args, run_pylint, write_tree
from pylint_omni.copies.fingerprints import FACT_KEY
from pylint_omni.copies.members import FileCopies
from pylint_omni.copies.upstream import upstream_files
from pylint_omni.index import scan_pool
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.dispatch import scan_file
from pylint_omni.index.upstream import UpstreamPackage, upstream_of
from pylint_omni.index.upstream import package as upstream_package
from pylint_omni.index.run_options import settings_for_root
from pylint_omni.plugin import register_scanners

REACHED = '''
class Base:
    def forward(self, batch):
        total = 0
        for item in batch.items:
            total += item.weight * self.scale
        self.last = total
        return total


def helper(config):
    return config.reached_option
'''

UNREACHED = '''
class Spare:
    def forward(self, batch):
        return [item.only_read_here for item in batch.items]


def other(unreached_parameter):
    return unreached_parameter
'''

RECORD = "lazyup/__init__.py,sha256=abc,0\nlazyup/reached.py,sha256=def,1\nlazyup/unreached.py,sha256=ghi,2\n"


def _wheel(folder: Path) -> Path:
    """An unpacked wheel of `lazyup` 1.0 in `folder` (package and dist-info)."""
    (folder / "lazyup").mkdir(parents=True)
    (folder / "lazyup/__init__.py").write_text("")
    (folder / "lazyup/reached.py").write_text(REACHED)
    (folder / "lazyup/unreached.py").write_text(UNREACHED)
    info = folder / "lazyup-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lazyup\nVersion: 1.0\n")
    (info / "RECORD").write_text(RECORD)
    return folder


def _project(root: Path, upstream: Path, cache: Path) -> ProjectIndex:
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'pkg'\n")
    (root / "pkg/__init__.py").write_text("")
    (root / "pkg/model.py").write_text("from lazyup.reached import Base\n\n\nclass Mine(Base):\n    scale = 2\n")
    settings = replace(settings_for_root(root), upstream_packages=("lazyup",), upstream_paths=(str(upstream),),
                       reimplementation_upstreams=("lazyup",), cache_dir=cache)
    index = ProjectIndex(root, settings)
    index.refresh()
    return index


def test_only_the_reached_files_get_family_facts_and_they_equal_a_full_scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    register_scanners()
    upstream = _wheel(tmp_path / "wheel")
    index = _project(tmp_path / "proj", upstream, tmp_path / "cache")
    scanned: list[tuple[str, bool | None]] = []
    real_entry = scan_pool.scan_entry

    def counting(job: scan_pool.Job) -> dict:  # type: ignore[type-arg]
        scanned.append((job[1].relpath, job[4]))
        return real_entry(job)

    monkeypatch.setattr(scan_pool, "scan_entry", counting)
    monkeypatch.setattr(upstream_package, "scan_entry", counting)
    monkeypatch.setattr(scan_pool, "PARALLEL_MIN_FILES", 10**6)  # in this process, so that the count sees every file
    package = upstream_of(index).package("lazyup")
    assert package is not None
    files = upstream_files(index, ["lazyup"])
    # The modules the project's imports run were read once without any family's scanner; the reached file with all.
    assert sorted(rel for rel, audited in scanned if audited is None) == ["lazyup/__init__.py", "lazyup/reached.py"]
    assert [rel for rel, audited in scanned if audited] == ["lazyup/reached.py"]
    assert [f.relpath for f in files] == ["lazyup/reached.py"]
    # The facts of the reached file are those of a whole-package scan with every scanner (what was kept before).
    full = scan_file("python", REACHED, "lazyup/reached.py", "lazyup.reached", True)
    assert package.facts_of("lazyup/reached.py") == full
    assert [u.exact for u in files[0].copies.units] == [u.exact for u in FileCopies("lazyup/reached.py", full["extra"][FACT_KEY]).units]
    # A module nothing the project imports runs is not read: its code never runs in the project's process.
    assert "lazyup.reached.Base" in package.classes() and "lazyup.unreached.Spare" not in package.classes()
    assert package.reads("only_read_here") is None and package.accepts("unreached_parameter") is None
    read = package.reads("reached_option")
    assert read is not None and read.path == "lazyup/reached.py"
    assert package.facts_of("lazyup/missing.py") == {}
    # Another run on this version reads the reached file's facts from the cache instead of scanning it again.
    scanned.clear()
    assert UpstreamPackage(package.located, tmp_path / "cache").facts_of("lazyup/reached.py") == full
    assert scanned == []


def test_a_second_project_on_another_copy_of_the_same_wheel_reuses_the_cache(tmp_path: Path) -> None:
    register_scanners()
    first = _wheel(tmp_path / "env1")
    second = tmp_path / "env2"
    shutil.copytree(first, second)
    cache = tmp_path / "cache"
    built = upstream_of(_project(tmp_path / "one", first, cache)).package("lazyup")
    assert built is not None
    built.summary()
    assert built.build_seconds is not None
    reused = upstream_of(_project(tmp_path / "two", second, cache)).package("lazyup")
    assert reused is not None and reused.located.folder != built.located.folder
    reused.summary()
    reused.names()
    assert reused.build_seconds is None  # same name, version and RECORD: read from the first project's build
    # Another build of that version (its RECORD differs) is indexed on its own.
    (second / "lazyup-1.0.dist-info/RECORD").write_text(RECORD + "lazyup/patched.py,sha256=x,3\n")
    patched = UpstreamPackage(reused.located, cache)
    patched.summary()
    assert patched.build_seconds is not None


def test_a_version_another_process_is_building_is_waited_for_and_read_not_built_again(tmp_path: Path) -> None:
    register_scanners()
    upstream = _wheel(tmp_path / "wheel")
    package = upstream_of(_project(tmp_path / "proj", upstream, tmp_path / "built")).package("lazyup")
    assert package is not None
    package.summary()  # the parts the other process will write, built beforehand in another folder
    cache = tmp_path / "cache"
    cache.mkdir()
    waiting = UpstreamPackage(package.located, cache, package.seeds)
    lock = waiting._cache_file("build", ".lock")  # pylint: disable=protected-access  # the lock the other process holds
    assert lock is not None
    ready = tmp_path / "locked"
    # The other process: holds the build lock, "builds" for a second, writes the parts, ends.
    script = (f"import fcntl, pathlib, shutil, time; h = open({str(lock)!r}, 'a+b'); fcntl.flock(h.fileno(), fcntl.LOCK_EX); "
              f"pathlib.Path({str(ready)!r}).touch(); time.sleep(1); "
              f"[shutil.copy(p, {str(cache)!r}) for p in pathlib.Path({str(tmp_path / 'built')!r}).glob('upstream-*.json')]")
    other = subprocess.Popen([sys.executable, "-c", script])
    try:
        while not ready.exists():
            time.sleep(0.02)
        started = time.perf_counter()
        waiting.summary()
        assert time.perf_counter() - started > 0.5  # it waited for the lock
    finally:
        other.wait()
    assert waiting.build_seconds is None  # then read what the other process wrote, not built again


def test_one_run_over_two_project_roots_reads_each_upstream_part_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A monorepo linted at once (two roots, two indexes) asks one version through one package object: its summary,
    tens of MB for transformers, is loaded once per run, not once per root that imports it."""
    register_scanners()
    upstream = _wheel(tmp_path / "wheel")
    (upstream / "otherup").mkdir()
    (upstream / "otherup/__init__.py").write_text("VALUE = 1\n")
    cache = tmp_path / "cache"
    for name, also in (("one", ""), ("two", "import otherup\n")):  # the roots import different upstream sets
        (tmp_path / name / name).mkdir(parents=True)
        (tmp_path / name / "pyproject.toml").write_text(f"[project]\nname = '{name}'\n")
        (tmp_path / name / name / "__init__.py").write_text("")
        (tmp_path / name / name / "model.py").write_text(
            f"{also}from lazyup.reached import Base\n\n\nclass Mine(Base):\n    def forward(self, batch):\n        self.kept = batch\n        return batch\n")
    located = upstream_of(_project(tmp_path / "built", upstream, cache)).package("lazyup")
    assert located is not None
    UpstreamPackage(located.located, cache, located.seeds).summary()  # built and cached beforehand: the run only reads
    loaded: list[str] = []
    real_load = upstream_package._load  # pylint: disable=protected-access

    def counting(path: Path) -> dict | None:  # type: ignore[type-arg]
        found = real_load(path)
        if found is not None and "-summary-" in path.name:
            loaded.append(path.name)
        return found

    monkeypatch.setattr(upstream_package, "_load", counting)
    monkeypatch.setenv("PYLINT_OMNI_CACHE_DIR", str(cache))
    monkeypatch.chdir(tmp_path)
    out = StringIO()
    Run(["--load-plugins=pylint_omni", "--disable=all", "--enable=pylint-omni", "--persistent=n",
         f"--omni-upstream-paths={upstream}", "one/one", "two/two"], reporter=JSON2Reporter(out), exit=False)
    roots = {m["path"].split("/")[0] for m in json.loads(out.getvalue())["messages"]}
    assert roots == {"one", "two"}  # both roots were linted and judged against the upstream
    assert len(loaded) == 1


@pytest.mark.skipif(scan_pool.usable_cores() < 2, reason="a side process only with a core to spare")
def test_a_package_big_enough_for_a_pool_is_built_in_another_process_with_the_same_parts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build's working data ends with a forked builder; this process reads the parts it cached, the very parts
    an in-process build makes."""
    register_scanners()
    upstream = _wheel(tmp_path / "wheel")
    located = upstream_of(_project(tmp_path / "proj", upstream, tmp_path / "unused")).package("lazyup")
    assert located is not None
    builders = tmp_path / "builders.txt"
    real_build = upstream_package.build_parts

    def recording(name: str, folder: Path, seeds: frozenset[str] | None) -> tuple:  # type: ignore[type-arg]
        with builders.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return real_build(name, folder, seeds)

    monkeypatch.setattr(upstream_package, "build_parts", recording)
    monkeypatch.setattr(scan_pool, "PARALLEL_MIN_FILES", 3)  # lazyup's three files are worth a pool here
    aside = UpstreamPackage(located.located, tmp_path / "cache")
    parts = (aside.summary(), aside.names(), aside.files())
    assert [int(pid) for pid in builders.read_text().split()] != [os.getpid()] and len(builders.read_text().split()) == 1
    assert aside.build_seconds is not None  # this process waited for the build, and did not build
    monkeypatch.setattr(scan_pool, "PARALLEL_MIN_FILES", 10**6)
    here = UpstreamPackage(located.located, None)  # no cache to hand parts back through: built in this process
    assert (here.summary(), here.names(), here.files()) == parts
    assert builders.read_text().split()[-1] == str(os.getpid())


def test_a_class_of_a_nested_project_root_is_judged_against_its_upstream_base_without_a_crash(tmp_path: Path) -> None:
    """Linted from the outer root, astroid names a nested root's class `apps.sub.train.Mine` where that root's class
    graph says `train.Mine`: asking its upstream bases raised KeyError, an astroid-error on every such file
    (125 of ColossalAI's, whose findings were lost)."""
    upstream = _wheel(tmp_path / "wheel")
    tree = tmp_path / "tree"
    write_tree(tree, {
        "setup.py": "from setuptools import setup\nsetup(name='top')\n",
        "apps/sub/pyproject.toml": "[project]\nname = 'sub'\n",
        "apps/sub/train.py": """
            from lazyup.reached import Base


            class Mine(Base):
                def forward(self, batch):
                    self.kept = batch
                    return batch
            """,
    })
    _, found, stderr = run_pylint([*enable_args(), f"--omni-upstream-paths={upstream}", "."], tree, cache_dir=tmp_path / "cache")
    assert "Traceback" not in stderr and not [f for f in found if f.symbol == "astroid-error"]
    assert [(f.path, f.line, f.symbol) for f in found] == [("apps/sub/train.py", 6, "duplicated-state-field")]


def test_the_reach_follows_lazy_and_star_exports_and_imports_inside_functions_and_no_further(tmp_path: Path) -> None:
    """`from starup import Thing`, where the package star-imports its modules under `TYPE_CHECKING` (transformers'
    layout): the module defining `Thing` is read, and what its method imports when it runs; a sibling module the
    same star line names, which defines nothing the project imports, is not."""
    register_scanners()
    wheel = tmp_path / "wheel"
    (wheel / "starup").mkdir(parents=True)
    (wheel / "starup/__init__.py").write_text("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                                               "    from .alpha import *\n    from .beta import *\n")
    (wheel / "starup/alpha.py").write_text("def other(config):\n    return config.never_run_read\n")
    (wheel / "starup/beta.py").write_text("class Thing:\n    def run(self):\n        from .helpers import assist\n\n"
                                           "        return assist(self)\n")
    (wheel / "starup/helpers.py").write_text("def assist(obj):\n    return obj.helper_read\n")
    info = wheel / "starup-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: starup\nVersion: 1.0\n")
    root = tmp_path / "proj"
    write_tree(root, {"pyproject.toml": "[project]\nname = 'pkg'\n", "pkg/__init__.py": "",
                      "pkg/use.py": "from starup import Thing\n\n\ndef go():\n    return Thing().run()\n"})
    settings = replace(settings_for_root(root), upstream_packages=("starup",), upstream_paths=(str(wheel),), cache_dir=tmp_path / "cache")
    index = ProjectIndex(root, settings)
    index.refresh()
    package = upstream_of(index).package("starup")
    assert package is not None and package.seeds == frozenset({"starup.Thing"})
    assert "starup.beta.Thing" in package.classes()
    read = package.reads("helper_read")
    assert read is not None and read.path == "starup/helpers.py"
    assert package.reads("never_run_read") is None
    assert sorted(path for path, _, _ in package.files()) == ["starup/__init__.py", "starup/beta.py", "starup/helpers.py"]
