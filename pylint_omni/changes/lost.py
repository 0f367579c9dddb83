"""Lost features: dead code that is the only consumer of something the project still produces.

A dead reader hides a decision: an option still parsed, set in shipped deploy YAML or
offered on the command line, whose only applier lost its caller; a metric or setting
the user docs name, produced only in code nothing runs. Deleting the reader silently
drops the feature; keeping it keeps a promise nothing honours. The change says so:
wire it back, or remove the whole feature (the option, its parsing, the reader).

Three kinds of evidence make a change a lost feature:
- a *feed* of a family (`register_feeds`): an option production reads and something
  still sets, whose every production reader lies in code one high-confidence dead
  change deletes;
- a *documented name*: a string literal in that code (a metric, an environment
  variable, a key) that user-facing docs name and no other production code mentions,
  and that no config file sets as a value (`optimizer: paged_adamw_8bit` is chosen for
  a library that reads it; dead code comparing with it produces nothing).
Where the project is a git checkout, the change names the commit that last changed
the calls of its root (`history`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from pylint_omni.changes.fold import DELETING
from pylint_omni.changes.history import History
from pylint_omni.changes.model import HIGH, TEST_ONLY, UNUSED, ChangeSet, Feed, feed_sources
from pylint_omni.changes.state import inside
from pylint_omni.changes.wording import named
from pylint_omni.evidence.benefit import BenefitKind
from pylint_omni.evidence.contracts import contracts_of, is_design_page
from pylint_omni.evidence.memo import Planned
from pylint_omni.evidence.wording import short_message
from pylint_omni.index.derived import Table
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.tokens import declared_globals

# A string that names something (`vllm:e2e_latency`, `OMNI_TRACE_DIR`, `runtime.env`), not a word of prose.
NAME_LIKE = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:[_:.\-][A-Za-z0-9]+)+$")
MIN_NAME = 6  # a shorter string is a word, not a documented name
CHOSEN_VIAS = frozenset({"yaml-value", "json", "toml"})  # a value a config file sets: what reads it is not this code
PRODUCING_VIAS = frozenset({"str", "fstr", "attr", "name", "call", "getattr", "yaml-key", "yaml-value", "json", "toml"})


@dataclass(frozen=True)
class Lost:
    """One thing a change's dead code alone consumes or produces: what, and where it is still promised."""

    what: str
    how: str  # "set", "offered", "documented"
    promised: tuple[str, ...]


_FEEDS: Table[str, list[Feed]] = Table("changes.feeds")  # by feed source


def _feeds(index: ProjectIndex, enabled: frozenset[str]) -> list[Feed]:
    found: list[Feed] = []
    for name, symbols, feeds in feed_sources():
        if symbols & enabled:
            found.extend(_FEEDS.of(index, name, lambda f=feeds: list(f(index))))
    return found


class _Hosts:
    """The first deleting change whose spans hold a line, looked up among that file's spans only (every reader
    of every feed and every mention of a documented name asks, against hundreds of changes)."""

    def __init__(self, deleting: list[ChangeSet]) -> None:
        self._by_path: dict[str, list[tuple[int, int, ChangeSet]]] = {}
        for change in deleting:
            for path, first, last in change.spans:
                self._by_path.setdefault(path, []).append((first, last, change))

    def of(self, path: str, line: int) -> ChangeSet | None:
        return next((change for first, last, change in self._by_path.get(path, ()) if first <= line <= last), None)


def _names_a_module(index: ProjectIndex, token: str) -> bool:
    """`megatron.core` probed with `find_spec`: a package the project imports names a dependency, not a feature."""
    head = token.partition(".")[0]
    return "." in token and any(hit.via == "import" for hit in index.hits(head))


def _short(dotted: str) -> str:
    """`pkg.mod.Class.method` -> `Class.method`; `pkg.mod.helper` -> `helper`."""
    holder, _, name = dotted.rpartition(".")
    owner = holder.rpartition(".")[2]
    return f"{owner}.{name}" if owner[:1].isupper() else name


def _documented_names(index: ProjectIndex, change: ChangeSet, hosts: _Hosts) -> list[Lost]:
    """Names the change's code alone produces that user-facing docs promise (see the module docstring)."""
    history = contracts_of(index).history
    found: list[Lost] = []
    for path in sorted({p for p, _, _ in change.spans}):
        for token, mentions in index.file_occurrences(path):
            if len(token) < MIN_NAME or not NAME_LIKE.match(token) or _names_a_module(index, token):
                continue
            if not any(via == "str" and inside(change.spans, path, line) for line, via in mentions):
                continue
            docs: list[str] = []
            elsewhere = False
            for hit in index.hits(token):
                if hit.via in CHOSEN_VIAS:
                    elsewhere = True  # a value users choose in config files (an optimizer's name): read elsewhere
                    break
                if hit.via == "doc":
                    if hit.path not in history and not is_design_page(hit.path):
                        docs.append(f"{hit.path}:{hit.line}")
                elif (hit.via in PRODUCING_VIAS and index.location(hit.path) is Location.PRODUCTION
                      and hosts.of(hit.path, hit.line) is None):
                    elsewhere = True
                    break
            if docs and not elsewhere:
                found.append(Lost(f"`{token}`", "documented", tuple(docs[:3])))
    return found


def _switches(index: ProjectIndex, change: ChangeSet, hosts: _Hosts) -> list[Lost]:
    """Module globals the change's code alone sets and live code of their module reads (see the module docstring)."""
    found: list[Lost] = []
    for path in sorted({p for p, _, _ in change.spans}):
        lines = (index.text(path) or "").splitlines()
        spans = [(first, last) for p, first, last in change.spans if p == path]
        for name in declared_globals(line for first, last in spans for line in lines[first - 1:last]):
            word, initial = re.compile(rf"\b{re.escape(name)}\b"), re.compile(rf"^{re.escape(name)}\s*(?::[^=]*)?=")
            stored = re.compile(rf"\b{re.escape(name)}\s*(?::[^=]*)?=(?!=)|\bglobal\b.*\b{re.escape(name)}\b")
            outside = [(number, line) for number, line in enumerate(lines, 1) if word.search(line)
                       and not initial.match(line) and not inside(change.spans, path, number)]
            if any(stored.search(line) for _, line in outside):
                continue  # set elsewhere too: the dead code is not its only switch
            readers = [number for number, _ in outside if hosts.of(path, number) is None]
            if readers:
                found.append(Lost(f"`{name}`", "read", (f"{path}:{readers[0]}",)))
    return found


def lost_features(index: ProjectIndex, sets: list[ChangeSet], enabled: frozenset[str]) -> list[ChangeSet]:
    """The sets whose dead code is the only consumer of something still produced, reworded as lost features."""
    deleting = [s for s in sets if s.planned.verdict.confidence == HIGH and s.members[0].status in DELETING
                and s.planned.symbol in (UNUSED, TEST_ONLY)]
    if not deleting:
        return sets
    lost: dict[int, list[Lost]] = {}
    lookup = _Hosts(deleting)
    for feed in _feeds(index, enabled):
        hosts = [lookup.of(path, line) for path, line in feed.readers]
        if not hosts or any(h is None for h in hosts):
            continue
        host = Counter(id(h) for h in hosts).most_common(1)[0][0]
        lost.setdefault(host, []).append(Lost(feed.what, feed.how, feed.produced))
    for change in deleting:
        documented = _documented_names(index, change, lookup) + _switches(index, change, lookup)
        if documented:
            lost.setdefault(id(change), []).extend(documented)
    if not lost:
        return sets
    history = History(index)
    return [_reworded(index, change, lost[id(change)], history) if id(change) in lost else change for change in sets]


def _reworded(index: ProjectIndex, change: ChangeSet, losts: list[Lost], history: History) -> ChangeSet:
    planned = change.planned
    details = planned.details
    if details is None:
        return change
    root = details.subject.rpartition(".")[2] or change.members[0].dotted
    several = root.startswith("<") and len(change.members) > 1  # `mod.<unused definitions>`: name the definitions
    tests = planned.symbol == TEST_ONLY  # production never runs it; tests do (nanotron's validation loop)
    if index.module_file(details.subject) is not None:
        shown, verb = f"module {details.subject}", "is imported only by tests" if tests else "is never imported"
    elif several:
        shown, verb = named([_short(m.dotted) for m in change.members]), "run only in tests" if tests else "are never called"
    else:
        shown = _short(change.members[0].dotted if root.startswith("<") else details.subject)
        verb = "runs only in tests" if tests else "is never called"
    first = losts[0]
    role = {"documented": "producer", "read": "setter"}.get(first.how, "reader")
    what = f"Orphaned: {first.what} is still {first.how} ({first.promised[0]}), but its only {role}{'s' if several else ''} {shown} {verb}"
    if len(losts) > 1:
        what += f"; {len(losts) - 1} more such feature(s)"
    fix = "wire it back, or remove the feature: " + named([l.what.rpartition(" ")[2] for l in losts]) + f" and {shown}"
    name = change.members[0].dotted.rpartition(".")[2].partition("@")[0]
    commit = history.last_change(name)
    evidence = f"last changed in {commit}" if commit else "no caller in code, config, docs or tests"
    if commit and history.never_called(name):
        # Added uncalled: a feature still landing, not one a refactor dropped.
        what = what.replace("Orphaned: ", "Half-landed: ", 1)
        fix = "finish wiring it, or remove the feature: " + fix.partition(": ")[2]
        evidence = f"added uncalled in {commit}"
    text = short_message(what, fix, evidence)
    proof = "; ".join([*(f"{l.what}: {', '.join(l.promised)}" for l in losts), details.proof]
                      + ([f"the calls of {shown} last changed in commit {commit}"] if commit else []))
    simplification = (f"Decide: wire {shown} back where the feature should apply (the {named([l.what for l in losts])} "
                      f"still promise it), or remove the whole feature: {details.simplification[0].lower()}"
                      f"{details.simplification[1:]}")
    benefit = replace(details.benefit, kind=BenefitKind.FEATURE,
                      text=f"a lost feature: {named([l.what for l in losts])}; {details.benefit.text}")
    new = replace(details, simplification=simplification, benefit=benefit, proof=proof, kind="lost-feature",
                  surface=[*details.surface, *(f"{p} {l.what}" for l in losts for p in l.promised)],
                  members=details.members or tuple(m.ref() for m in change.members))
    return replace(change, kind="lost-feature", planned=Planned(planned.symbol, planned.line, planned.anchor, (text,),
                                                                   planned.verdict, new))
