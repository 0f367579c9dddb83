"""Shared message wording: the evidence, what was searched, and what stays unknown."""

from __future__ import annotations

import re

from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.paths import Location
from pylint_omni.index.submodules import namespace_folders, unchecked_submodules
from pylint_omni.index.upstream import upstream_of


def searched_summary(index: ProjectIndex) -> str:
    kinds = index.stats.files_by_kind
    data = sum(kinds.get(k, 0) for k in ("yaml", "json", "toml"))
    texts = sum(kinds.get(k, 0) for k in ("doc", "script"))
    return f"{kinds.get('python', 0)} Python, {data} YAML/JSON/TOML, {texts} docs/scripts files"


MESSAGE_BUDGET = 250  # characters: what, the fix, one evidence clause (SPEC §3)
CONFIDENCE_TAG = re.compile(r"^\[(?:high|medium|rejected)\] ")
NO_CONSUMER = "no consumer in code, config, docs or tests"


def evidence_clause(verdict: Verdict, proof: str = "") -> str:
    """The one evidence clause of a message: the proof (high), the doubt (medium) or the rejection.

    A high verdict says what proves it (`proof`, else "no consumer in code, config,
    docs or tests"); a medium one names its doubt; a rejected one its reason.
    """
    if verdict.status is Status.REJECTED:
        return f"rejected: {verdict.reason}"
    if verdict.confidence == "medium":
        return f"unsure: {verdict.reason}"
    if proof:
        return proof
    return NO_CONSUMER if verdict.reason == "no consumer found" else verdict.reason


def short_message(what: str, fix: str, evidence: str, keep_last: bool = False) -> str:
    """`What; fix (evidence).` in about 250 characters: details live in the report, JSON and `explain`.

    The evidence clause is cut first when the whole does not fit, since the report
    carries every consumer anyway; with `keep_last`, its last `; ` part (the benefit,
    `12 lines go`) is kept whole and the cut falls before it.
    """
    text = f"{what}; {fix} ({evidence})."
    if len(text) <= MESSAGE_BUDGET or len(evidence) <= 40:
        return text
    room = max(40, MESSAGE_BUDGET - len(what) - len(fix) - 6)
    head, _, last = evidence.rpartition("; ")
    if keep_last and head and len(last) < room // 2:
        return f"{what}; {fix} ({_cut(head, room - len(last) - 3)}…; {last})."
    return f"{what}; {fix} ({_cut(evidence, room - 1)}…)."


def clipped(text: str, limit: int) -> str:
    """`text` as it is, or its first `limit - 1` characters marked `…`: code quoted in a message (an expression,
    an assigned value) that the report shows whole."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _cut(text: str, room: int) -> str:
    """`text` cut to `room` characters at the last clause or word boundary (never inside a path)."""
    head = text[:room]
    for separator in ("; ", ", ", " "):
        at = head.rfind(separator)
        if at >= room // 2:
            return head[:at].rstrip(" ,;:")
    return head.rstrip()


def sentence(text: str) -> str:
    """`text` as a report sentence: capitalised, ending with a full stop."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def confidence_tagged(text: str, verdict: Verdict) -> str:
    """`[high] text`, `[medium] text` or `[rejected] text`: the line pylint prints says how sure the finding is
    (pylint's own `{confidence}` would say HIGH or INFERENCE; the records and reports keep the text untagged)."""
    tag = "rejected" if verdict.status is Status.REJECTED else verdict.confidence or "medium"
    return f"[{tag}] {text}"


def untagged(message: str) -> str:
    """A printed message without its confidence tag (the text its record holds)."""
    return CONFIDENCE_TAG.sub("", message, count=1)


def missing_submodules(index: ProjectIndex) -> list[tuple[str, str]]:
    """(submodule path, what its absence weakens) for each git submodule the checkout lacks."""
    return [(path, "code there may use what is reported unused or test-only; `git submodule update --init`, then run again")
            for path in unchecked_submodules(index.root)]


def unlinted_folders(index: ProjectIndex, linted: set[str]) -> list[tuple[str, str]]:
    """(folder, why its findings are missing) for each production folder without `__init__.py` inside a package
    that still holds Python files this run did not lint (`linted`: relative paths).

    pylint walks a package argument through `__init__.py` folders only, `--recursive=y` too (it hands a folder
    with `__init__.py` to the same package walk), so the fix is to name the folder as well, or add the file."""
    python = [path for path, entry in index.entries.items() if entry.get("kind") == "python"]
    found = []
    for folder, _ in namespace_folders(python, lambda path: index.location(path) is not Location.VALIDATION):
        missed = sum(1 for path in python if path.startswith(f"{folder}/") and path not in linted
                     and index.location(path) is not Location.VALIDATION)
        if missed:
            found.append((f"{folder}/ ({missed} Python file{'s' if missed != 1 else ''})",
                          "no __init__.py, so pylint skips it when it lints the package (with --recursive=y too): "
                          f"nothing there is reported; name it on the command line as well ({folder}) or add __init__.py"))
    return found


def shadowed_modules(index: ProjectIndex) -> list[tuple[str, str]]:
    """(file, why it never runs) for each production module file that a package of the same name beside it shadows."""
    return [(rel, f"the package {rel.removesuffix('.py')}/ beside it is what Python imports: the file never runs "
                  "(nothing in it was judged); delete it")
            for rel, entry in sorted(index.entries.items())
            if entry.get("kind") == "python" and not entry.get("module") and rel.endswith(".py")
            and f"{rel.removesuffix('.py')}/__init__.py" in index.entries and index.location(rel) is not Location.VALIDATION]


def missing_upstreams(index: ProjectIndex) -> list[tuple[str, str]]:
    """(package, what its absence weakens) for each upstream package of `omni-upstream-packages` the project
    imports that is neither installed where pylint runs nor in `omni-upstream-paths`."""
    found = []
    for name in upstream_of(index).missing:
        compared = name in index.settings.reimplementation_upstreams
        found.append((name, ("upstream-reimplementation cannot compare with it; " if compared else "")
                      + "findings that depend on what it reads or calls stay medium"))
    return found


def leftover_clause(leftovers: list[str], owner: str = "its") -> str:
    """`its unused import at mod.py:17` / `their 2 unused imports (a.py:3, …)`; a package `__init__` re-exports."""
    if not leftovers:
        return ""
    first = leftovers[0].rpartition("/")[2]
    kind = "re-export" if first.startswith("__init__.py:") or "`__all__`" in first else "unused import"
    return f"{owner} {kind} at {first}" if len(leftovers) == 1 else f"{owner} {len(leftovers)} unused imports ({first}, …)"
