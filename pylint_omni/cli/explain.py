"""`python -m pylint_omni explain NAME`: what the evidence knows of a name, as the messages judge it.

NAME is a symbol (`FooModel`), a dotted path (`pkg.mod.FooModel`, `pkg.mod.Cls.field`) or a
registry key. It prints the root used, then for each definition and registry
entry found: the resolved consumers by kind (the reference graph), then the
name-only mentions (weaker: the name alone, not resolved to this definition),
then the upstream readers (indexed upstream packages reading it on the same kind
of object), and the surface's reachability (`unused-surface`/`test-only-surface`:
the path from its root, or the dead chain it belongs to and that chain's verdict).
A registry entry shows the verdict `unused-registry-entry` gives it,
through the same code (`registries.liveness.judge_entry`), so both always agree:
the entry's own lines are never a mention, archived design pages never count.
Exit status: 0 when something is known, 1 with "not found" otherwise.

Then the findings about the name with their ids (`explain_findings`: a lint of the
project, cached until a file changes; without `--findings` only a cached lint is
read), and `explain ID` shows the finding with that id.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from pylint_omni.changes.plan import change_plan, stage_symbols
from pylint_omni.evidence.contracts import contracts_of
from pylint_omni.evidence.consumers import ConsumerKind, consumer_kind
from pylint_omni.evidence.upstream_readers import upstream_readers, upstream_unknowns
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import Definition, Hit, ProjectIndex
from pylint_omni.lifecycle.explain import ownership_lines
from pylint_omni.index.run_options import settings_for_root
from pylint_omni.registries.liveness import judge_entry, read_registry
from pylint_omni.surfaces.explain import lineage_targets, reachability_lines
from pylint_omni.evidence.identity import looks_like_id
from pylint_omni.cli.precommit import project_packages
from pylint_omni.cli.tree_lint import LintFailed, cached_findings, lint_findings, working_tree_state

NON_USES = frozenset({"import", "hop", "all", "store", "attr-store"})


def _definitions(index: ProjectIndex, name: str) -> list[Definition]:
    """Definitions a name means: by dotted path (through re-exports), else by simple name."""
    if "." in name:
        graph = graph_of(index)
        target = graph.resolve(name)
        found = index.resolve_target(target.dotted) if target.kind in ("class", "def", "member") else None
        return [found] if found is not None else []
    return [d for d in index.definitions_named(name)]


def _print_refs(out: Any, title: str, rows: list[str]) -> None:
    print(f"{title}: {len(rows)}", file=out)
    for row in rows:
        print(f"  {row}", file=out)


def _explain_definition(index: ProjectIndex, definition: Definition, own_spans: list[tuple[str, int, int]], out: Any) -> None:
    graph = graph_of(index)
    history = contracts_of(index).history
    spans = [*own_spans, (definition.path, definition.data["line"], definition.data["end"])]
    print(f"{definition.kind} {definition.dotted} ({definition.path}:{definition.data['line']})", file=out)
    by_kind: dict[ConsumerKind, list[str]] = {kind: [] for kind in ConsumerKind}
    reexports: list[str] = []
    seen: set[tuple[str, int]] = set()
    targets = lineage_targets(index, definition.dotted) if index.location(definition.path) is Location.PRODUCTION else [definition.dotted]
    for target in targets:
        through = "" if target == definition.dotted else f", through {target.rpartition('.')[0].rpartition('.')[2]}"
        for ref in graph.refs_to(target):
            if any(ref.path == p and a <= ref.line <= b for p, a, b in spans) or ref.path in history or (ref.path, ref.line) in seen:
                continue
            seen.add((ref.path, ref.line))
            if ref.via in NON_USES:
                reexports.append(f"{ref.path}:{ref.line} ({ref.via})")
                continue
            by_kind[consumer_kind(index, Hit(ref.path, ref.line, ref.via))].append(f"{ref.path}:{ref.line} ({ref.via}{through})")
    for kind, rows in by_kind.items():
        _print_refs(out, f"  resolved {kind.value} consumers", rows)
    _print_refs(out, "  imports and re-exports (not uses)", reexports)
    name = definition.data["name"]
    mentions = [
        f"{h.path}:{h.line} ({h.via}, {consumer_kind(index, h).value})"
        for h in graph.name_only(name, {definition.dotted})
        if (h.path, h.line) not in seen and h.via not in NON_USES and h.path not in history
        and not any(h.path == p and a <= h.line <= b for p, a, b in spans)
    ]
    _print_refs(out, "  name-only mentions (the name, not resolved to this definition)", mentions)
    if definition.kind == "function" and "." in definition.data["qual"]:
        owner, _, attr = definition.dotted.rpartition(".")
        readers = upstream_readers(index, owner, attr)
        _print_refs(out, "  upstream readers", [f"{ref.describe()} ({ref.via}; {why})" for ref, why in readers])
    if definition.kind == "class":
        for line in ownership_lines(index.root / definition.path, definition.data["line"]):
            print(f"  {line}", file=out)
    if index.location(definition.path) is Location.PRODUCTION:
        for line in reachability_lines(index, definition.dotted):
            print(f"  {line}", file=out)
        for line in change_lines(index, definition.path, definition.data["line"], definition.dotted):
            print(f"  {line}", file=out)


def change_lines(index: ProjectIndex, path: str, line: int, dotted: str) -> list[str]:
    """The change set a surface belongs to with others, as the messages plan it (`changes.plan`: the same code); a
    change of its own is the verdict above."""
    plan = change_plan(index, stage_symbols())
    for change in plan.sets:
        if len(change.members) < 2:
            continue
        member = next((m for m in change.members if m.dotted == dotted or (m.path == path and m.line == line)), None)
        if member is None:
            continue
        planned = change.planned
        confidence = planned.verdict.confidence or planned.verdict.status.value
        return [f"change: {planned.symbol} ({confidence}, {change.kind}, {len(change.members)} member(s)) at "
                f"{change.path}:{planned.line}: {planned.args[-1] if planned.args else ''}"]
    return []


def _explain_member(index: ProjectIndex, name: str, out: Any) -> bool:
    """A field or class attribute (`pkg.mod.Cls.field`): its resolved uses and upstream readers."""
    target = graph_of(index).resolve(name)
    if target.kind != "member":
        return False
    owner, _, attr = target.dotted.rpartition(".")
    print(f"member {target.dotted}", file=out)
    rows = [f"{r.path}:{r.line} ({r.via}, {consumer_kind(index, Hit(r.path, r.line, r.via)).value})" for r in graph_of(index).refs_to(target.dotted)]
    _print_refs(out, "  resolved uses (attribute reads, writes and calls on objects of the class)", rows)
    _print_refs(out, "  upstream readers", [f"{ref.describe()} ({ref.via}; {why})" for ref, why in upstream_readers(index, owner, attr)])
    return True


def _explain_entries(index: ProjectIndex, name: str, out: Any) -> tuple[int, list[tuple[str, int, int]]]:
    """Registry entries whose key is `name`, judged exactly as the message judges them."""
    found, spans = 0, []
    for rel, registry in index.registries():
        for entry in registry["entries"]:
            if entry["key"] != name:
                continue
            found += 1
            spans.append((rel, entry["span"][0], entry["span"][1]))
            where = f"{rel}:{entry['line']}"
            print(f"registry entry {name!r} of {registry['name']} ({registry['form']}) at {where}", file=out)
            if index.location(rel) is Location.VALIDATION:
                print("  declared under a validation path: not audited", file=out)
                continue
            evidence = judge_entry(index, index.settings, rel, registry, entry, read_registry(index, rel, registry))
            if evidence is None:
                print("  a data map (its values name no project code): not audited", file=out)
                continue
            verdict = evidence.verdict
            label = verdict.status.value + (f" ({verdict.confidence})" if verdict.confidence else "")
            print(f"  unused-registry-entry verdict: {label}: {verdict.reason}", file=out)
            paths = evidence.paths
            if paths is not None:
                print(f"  storage: {', '.join(paths.storage) or paths.unresolved or 'unknown'}", file=out)
                _print_refs(out, "  reads of the registry", [r.describe() for r in paths.reads])
            for kind in ConsumerKind:
                _print_refs(out, f"  resolved {kind.value} consumers of the key", [c.describe() for c in verdict.by_kind(kind)])
            for unknown in verdict.unknowns:
                print(f"  unknown: {unknown}", file=out)
            for line in change_lines(index, rel, entry["line"], entry["key"]):
                print(f"  {line}", file=out)
    return found, spans


def explain(name: str, root: Path, out: Any = sys.stdout) -> int:
    """Print what is known of `name` under `root`; 0 when anything is, else "not found" and 1."""
    index = ProjectIndex(root, settings_for_root(root))
    index.refresh()
    print(f"project root: {root}", file=out)
    entries, spans = _explain_entries(index, name, out)
    definitions = _definitions(index, name)
    for definition in definitions:
        _explain_definition(index, definition, spans, out)
    if not definitions and "." in name and _explain_member(index, name, out):
        return 0
    if not entries and not definitions:
        history = contracts_of(index).history
        hits = [h for h in index.hits(name) if h.path not in history and h.via not in NON_USES]
        if not hits:
            print(f"not found: {name} (no definition, registry key or mention under {root})", file=out)
            return 1
        _print_refs(out, "name-only mentions (nothing of that name is defined or registered)",
                    [f"{h.path}:{h.line} ({h.via}, {consumer_kind(index, h).value})" for h in hits])
    for unknown in upstream_unknowns(index):
        print(f"unknown: {unknown}", file=out)
    return 0


def _about(name: str, finding: dict[str, Any]) -> bool:
    """Whether a finding is about `name`: its id, its subject, or a part of its subject."""
    subject = finding.get("subject") or ""
    if name in (finding.get("id"), subject) or subject.startswith((name + ".", name + "[", name + ":")):
        return True
    return name in re.split(r"[\s.\[\]'\"():<+-]+", subject)


def explain_findings(name: str, root: Path, lint: bool, out: Any = sys.stdout) -> int | None:
    """Print the findings about `name` (or with id `name`): 0 when any, 1 when none, None when not looked up.

    The project's packages are linted (through the cache: free when no file changed
    since the last lint) when `lint`; otherwise only an already cached result is read.
    """
    paths = project_packages(root)
    if not paths:
        return None
    found = lint_findings(root, paths) if lint else cached_findings(working_tree_state(root), paths)
    if found is None:
        print("(findings not looked up: add --findings to lint the project and list them, with their ids)", file=out)
        return None
    about = [f for f in [*found.candidates, *found.rejected] if _about(name, f)]
    print(f"findings about {name} in {', '.join(paths)}: {len(about)}", file=out)
    for f in about:
        state = f"{f['status']}, {f['confidence']}" if f["status"] == "candidate" else f["status"]
        print(f"  {f['id']}  {f['symbol']} ({state}) at {f['path']}:{f['line']}", file=out)
        print(f"    subject: {f['subject']}", file=out)
        print(f"    {f['message']}", file=out)
        if f.get("owners"):
            print(f"    owners: {', '.join(f['owners'])} (from {f['owners_source']})", file=out)
        if f["status"] == "rejected" and f.get("reason"):
            print(f"    rejected because: {f['reason']}", file=out)
    return 0 if about else 1


def explain_command(name: str, root: Path, with_findings: bool, out: Any = sys.stdout) -> int:
    """`explain NAME`: the index's consumers, then the findings about it; `explain ID`: that finding."""
    if looks_like_id(name):
        print(f"project root: {root}", file=out)
        try:
            status = explain_findings(name, root, lint=True, out=out)
        except LintFailed as exc:
            print(f"pylint-omni explain: {exc}", file=sys.stderr)
            return 2
        if status:
            print(f"no finding with id {name} in this tree (fixed, kept, or the id of another version)", file=out)
        return status if status is not None else 1
    known = explain(name, root, out)
    try:
        status = explain_findings(name, root, lint=with_findings, out=out)
    except LintFailed as exc:
        print(f"pylint-omni explain: {exc}", file=sys.stderr)
        return 2
    return 0 if known == 0 or status == 0 else 1
