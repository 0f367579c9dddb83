"""`python -m pylint_omni diff [--base REF] [--head REF] [PATHS]`: which findings a branch adds and resolves.

A pull request that deletes the last caller of a function makes that function dead
in a file the PR never touched, so the question is not "findings on changed lines"
but "which findings does the branch add or remove compared with the merge base".
The base (default `git merge-base HEAD origin/main`, else the merge base with the
remote's default branch, `main` or `master`, else HEAD) is checked out in a
temporary `git worktree` (hooks off; removed afterwards; the user's tree is never
touched) and linted there; the head is the working tree (or `--head REF`, checked out
the same way). Finding ids are compared: added, resolved, and moved (the same
message, rule and qualified name relative to its module in another place: code moved
without change adds nothing). Both sides are cached (`tree_lint`): a second run on
the same commits and an unchanged tree reads them back.

Exit status: 0 when nothing was added, 1 when findings were added (0 with
`--exit-zero`), 2 when the command could not run (not a git checkout, an unknown
ref, pylint failed).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

from pylint_omni.cli.precommit import project_packages
from pylint_omni.cli.tree_lint import LintFailed, TreeFindings, cached_findings, lint_findings, run_lint, store_findings

BASE_CANDIDATES = ("origin/main", "origin/HEAD", "origin/master", "main", "master")
GIT_ENV = {"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}


class DiffError(RuntimeError):
    """The diff cannot run; the text says why."""


def git(folder: Path, *args: str) -> str:
    proc = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, check=False,
                          env={**os.environ, **GIT_ENV}, timeout=600)
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        raise DiffError(f"git {' '.join(args)} failed: {lines[-1] if lines else f'exit {proc.returncode}'}")
    return proc.stdout.strip()


def commit_of(folder: Path, ref: str) -> str | None:
    try:
        return git(folder, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except DiffError:
        return None


def default_base(folder: Path) -> tuple[str, str]:
    """(commit, how it was chosen): the merge base with the first of `BASE_CANDIDATES` that exists, else HEAD."""
    head = commit_of(folder, "HEAD")
    if head is None:
        raise DiffError("no commit yet: there is nothing to compare with")
    for ref in BASE_CANDIDATES:
        if commit_of(folder, ref) is None:
            continue
        try:
            base = git(folder, "merge-base", "HEAD", ref)
        except DiffError:
            continue  # no shared history with this one: try the next
        return base, f"git merge-base HEAD {ref}"
    return head, "HEAD (no origin/main, origin/HEAD, origin/master, main or master shares history with HEAD)"


@contextmanager
def checked_out(toplevel: Path, commit: str) -> Iterator[Path]:
    """A temporary detached worktree of `commit` (hooks off), removed on exit."""
    folder = Path(tempfile.mkdtemp(prefix="pylint-omni-diff-"))
    tree = folder / "tree"
    try:
        git(toplevel, "-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", "--quiet", str(tree), commit)
        yield tree
    finally:
        try:
            git(toplevel, "worktree", "remove", "--force", str(tree))
        except DiffError:
            shutil.rmtree(tree, ignore_errors=True)
            subprocess.run(["git", "-C", str(toplevel), "worktree", "prune"], capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)


def lint_commit(toplevel: Path, prefix: str, commit: str, present: Sequence[str], extra: Sequence[str]) -> TreeFindings:
    """Findings of `present` (paths relative to the project root at `prefix`, all in `commit`) at `commit`."""
    state = f"commit:{commit}:{prefix}"
    found = cached_findings(state, present, extra)
    if found is not None:
        return found
    with checked_out(toplevel, commit) as tree, tempfile.TemporaryDirectory(prefix="pylint-omni-index-") as index_cache:
        # The checkout's index cache dies with it: its paths and mtimes are never seen again.
        found = run_lint(tree / prefix, present, extra, Path(index_cache))
    store_findings(state, present, extra, found)
    return found


def _exists_at(toplevel: Path, commit: str, prefix: str, path: str) -> bool:
    spec = f"{commit}:{prefix}{path.strip('/')}"
    return subprocess.run(["git", "-C", str(toplevel), "cat-file", "-e", spec], capture_output=True, check=False,
                          env={**os.environ, **GIT_ENV}).returncode == 0


def local_subject(finding: dict[str, Any]) -> str:
    """The subject without its module (`pkg.mod.Class.f` in `pkg/mod.py` -> `Class.f`), to recognise moved code."""
    subject, path = finding.get("subject") or "", finding.get("path") or ""
    if subject.startswith(path + "::"):
        return subject[len(path) + 2:]
    parts = path.removesuffix(".py").split("/")
    parts = parts[:-1] if parts and parts[-1] == "__init__" else parts
    for start in range(len(parts)):
        module = ".".join(parts[start:])
        if module and subject[len(module):len(module) + 1] in (".", ":") and subject.startswith(module):
            return subject[len(module) + 1:]
    return subject


@dataclass
class Comparison:
    added: list[dict[str, Any]] = field(default_factory=list)
    resolved: list[dict[str, Any]] = field(default_factory=list)
    moved: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)  # (base, head)
    unchanged: int = 0


def compare(base: list[dict[str, Any]], head: list[dict[str, Any]]) -> Comparison:
    """Candidates by id: added, resolved, moved (same symbol, rule and subject relative to its module), unchanged."""
    base_ids, head_ids = {f["id"] for f in base}, {f["id"] for f in head}
    result = Comparison(unchanged=len(base_ids & head_ids))
    gone = [f for f in base if f["id"] not in head_ids]
    pending: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for finding in gone:
        pending.setdefault((finding["symbol"], finding.get("kind", ""), local_subject(finding)), []).append(finding)
    for finding in head:
        if finding["id"] in base_ids:
            continue
        twins = pending.get((finding["symbol"], finding.get("kind", ""), local_subject(finding)))
        if twins:
            result.moved.append((twins.pop(0), finding))
        else:
            result.added.append(finding)
    moved_from = {id(pair[0]) for pair in result.moved}
    result.resolved = [f for f in gone if id(f) not in moved_from]
    return result


def _row(sign: str, finding: dict[str, Any]) -> str:
    what = finding["message"].split(". Confidence")[0].split(". Rejected")[0]
    return (f"  {sign} {finding['path']}:{finding['line']}: {finding['msgid']} {finding['symbol']} ({finding['confidence']}) "
            f"[{finding['id']}] {what}")


def render(base: Side, head: Side, result: Comparison) -> str:
    lines = [f"pylint-omni diff: base {base.label} -> head {head.label}"]
    for side in (base, head):
        linted = side.findings.modules_linted if side.findings else 0
        cached = " (from the cache)" if side.findings and side.findings.from_cache else ""
        lines.append(f"  {side.name}: {linted} modules linted in {', '.join(side.paths) or 'nothing (the paths do not exist)'}{cached}")
    lines.append(f"added {len(result.added)}, resolved {len(result.resolved)}, moved {len(result.moved)}, unchanged {result.unchanged}")
    for title, sign, rows in (("added", "+", result.added), ("resolved", "-", result.resolved)):
        if rows:
            lines += [f"{title}:"] + [_row(sign, f) for f in sorted(rows, key=lambda f: (f["path"], f["line"]))]
    if result.moved:
        lines += ["moved (same finding, other place; not added):"]
        lines += [f"  ~ {b['path']}:{b['line']} -> {h['path']}:{h['line']}: {h['symbol']} {local_subject(h)}" for b, h in result.moved]
    return "\n".join(lines) + "\n"


@dataclass
class Side:
    """One side of the diff: what was linted and what it found."""

    name: str  # base | head
    label: str  # "1a2b3c4d5e6f (git merge-base HEAD origin/main)"
    paths: list[str]
    findings: TreeFindings | None  # None: none of the paths exist on this side

    @property
    def candidates(self) -> list[dict[str, Any]]:
        return self.findings.candidates if self.findings else []


def commit_side(name: str, label: str, toplevel: Path, prefix: str, commit: str, targets: Sequence[str],
                extra: Sequence[str]) -> Side:
    present = [t for t in targets if _exists_at(toplevel, commit, prefix, t)]
    return Side(name, label, present, lint_commit(toplevel, prefix, commit, present, extra) if present else None)


def diff(root: Path, base_ref: str | None, head_ref: str | None, paths: Sequence[str], extra: Sequence[str]) -> tuple[Side, Side, Comparison]:
    """Lint both sides and compare them."""
    toplevel = Path(git(root, "rev-parse", "--show-toplevel"))
    prefix = git(root, "rev-parse", "--show-prefix")
    if base_ref:
        base_commit = commit_of(root, base_ref)
        if base_commit is None:
            raise DiffError(f"--base {base_ref}: not a commit of this repository")
        how = base_ref
    else:
        base_commit, how = default_base(root)
    targets = list(paths) or sorted(set(project_packages(root)) | set(_packages_at(toplevel, base_commit, prefix)))
    if not targets:
        raise DiffError(f"no package in {root}: pass the PATHS to compare")
    base = commit_side("base", f"{base_commit[:12]} ({how})", toplevel, prefix, base_commit, targets, extra)
    if head_ref:
        head_commit = commit_of(root, head_ref)
        if head_commit is None:
            raise DiffError(f"--head {head_ref}: not a commit of this repository")
        head = commit_side("head", f"{head_commit[:12]} ({head_ref})", toplevel, prefix, head_commit, targets, extra)
    else:
        present = [t for t in targets if (root / t).exists()]
        head_commit = commit_of(root, "HEAD") or ""
        head = Side("head", f"the working tree (HEAD {head_commit[:12]})", present, lint_findings(root, present, extra) if present else None)
    return base, head, compare(base.candidates, head.candidates)


def _packages_at(toplevel: Path, commit: str, prefix: str) -> list[str]:
    """Top-level packages of the project at `commit` (flat or `src/` layout), tests left out."""
    try:
        listed = git(toplevel, "ls-tree", "-r", "--name-only", commit, "--", prefix or ".").splitlines()
    except DiffError:
        return []
    found = set()
    for name in listed:
        relative = name[len(prefix):].split("/")
        for depth in (1, 2):
            if len(relative) == depth + 1 and relative[-1] == "__init__.py" and (depth == 1 or relative[0] == "src"):
                package = "/".join(relative[:-1])
                if relative[depth - 1] not in ("tests", "test", "benchmarks", "examples"):
                    found.add(package)
    return sorted(found)


def run(root: Path, base_ref: str | None, head_ref: str | None, paths: Sequence[str], extra: Sequence[str],
        json_path: str | None = None) -> int:
    if any(item.startswith(("--omni-root", "--omni-baseline")) for item in extra):
        print("pylint-omni diff: --omni-root and --omni-baseline do not apply: each side is linted whole, "
              "from the project folder it is run in", file=sys.stderr)
        return 2
    try:
        base, head, result = diff(root, base_ref, head_ref, paths, extra)
    except (DiffError, LintFailed) as exc:
        print(f"pylint-omni diff: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render(base, head, result))
    if json_path:
        document = {"format": "pylint-omni-diff/1", "base": base.label, "head": head.label, "added": result.added,
                    "resolved": result.resolved, "moved": [{"base": b, "head": h} for b, h in result.moved],
                    "unchanged": result.unchanged}
        Path(json_path).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return 1 if result.added else 0
