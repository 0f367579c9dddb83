"""Routes: HTTP handlers registered on an app, judged by who in the repository calls their path.

A route (`@app.get("/v1/x")`, `@router.post(...)`, `@app.api_route`, `@app.websocket`)
is reached by clients outside the repository, so it is never high confidence. Its
path (path parameters as wildcards) is looked up in every string of the index:
code, configuration, docs, scripts, examples and tests, a URL that ends with it
included (`f"{base}/v1/x"`, `curl http://host:8000/v1/x`):
- production code, configuration, docs or examples call it: a supported route, silent;
- only tests call it: `test-only-surface`, medium, naming them;
- nothing in the repository calls it: `unused-surface`, medium ("clients outside
  the repository may call it: decide whether it is supported").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pylint_omni.evidence.consumers import Consumer, ConsumerKind, Verdict, decide, listed
from pylint_omni.index.derived import Derived
from pylint_omni.index.paths import Location, matches_any
from pylint_omni.index.project_index import Hit, ProjectIndex
from pylint_omni.surfaces.analysis import SurfaceAnalysis
from pylint_omni.surfaces.decorators import ROUTE, route_path
from pylint_omni.surfaces.verdicts import TEST_GLOBS

OWN_DECORATOR_LINES = 40  # a route's decorators sit right above its `def`


@dataclass(frozen=True)
class RouteFinding:
    """One route and what the repository says of it."""

    function: str  # the handler's dotted name
    method: str  # HTTP verb (`post`, `get`, ...)
    path: str
    symbol: str  # unused-surface | test-only-surface
    verdict: Verdict


def _path_tokens(index: ProjectIndex) -> list[str]:
    """Every indexed token that looks like a URL path (memoised per index state)."""
    tokens: set[str] = set()
    for entry in index.entries.values():
        tokens.update(t for t in entry.get("facts", {}).get("refs", {}) if "/" in t)
    return sorted(tokens)


_PATH_TOKENS: Derived[list[str]] = Derived("surfaces.route_path_tokens", _path_tokens)


def _callers(index: ProjectIndex, path: str, relpath: str, def_line: int) -> list[Hit]:
    shape = re.escape(re.sub(r"\{[^}]*\}", "\0", path.lstrip("/"))).replace("\0", "[^/]+")
    pattern = re.compile(r"(?:^|/)" + shape + r"/?(?:\?.*)?$")  # docs drop the leading slash of a word
    hits: list[Hit] = []
    for token in _PATH_TOKENS.of(index):
        if pattern.search(token):
            hits += [h for h in index.hits(token)
                     if not (h.path == relpath and def_line - OWN_DECORATOR_LINES <= h.line <= def_line)]
    return hits


def judge_routes(index: ProjectIndex, analysis: SurfaceAnalysis, relpath: str) -> list[RouteFinding]:
    """The routes of one production file that no supported caller in the repository reaches."""
    found = []
    for line, _, dotted in analysis.table.spans.get(relpath, ()):
        surface = analysis.table.surfaces[dotted]
        paths = [(text, route_path(text)) for text in surface.decorators if route_path(text)]
        if not paths or surface.kind not in ("function", "method"):
            continue
        text, path = paths[0]
        match = ROUTE.match(text.strip())
        verb = match.group(1) if match else "route"
        assert path is not None
        hits = _callers(index, path, relpath, line)
        supported = [h for h in hits if not matches_any(h.path, TEST_GLOBS) or index.location(h.path) is Location.PRODUCTION]
        if supported:
            continue
        unknown = "clients outside the repository may call it"
        if hits:
            consumers = [Consumer(h.path, h.line, h.via, ConsumerKind.VALIDATION, path) for h in hits]
            verdict = decide("", doubts=[f"{unknown}; tests call it: {listed(consumers)}"], consumers=consumers, unknowns=[unknown])
            found.append(RouteFinding(dotted, verb, path, "test-only-surface", verdict))
        else:
            verdict = decide("", doubts=[unknown])
            found.append(RouteFinding(dotted, verb, path, "unused-surface", verdict))
    return found
