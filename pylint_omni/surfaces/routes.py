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
When the repository calls fewer than `MIN_CALLED_SHARE` of its routes (at least
`MIN_ROUTES` of them), its clients live elsewhere (a web UI, an SDK in another
repository): a route nobody here calls says nothing, and none is reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pylint_omni.evidence.consumers import Consumer, ConsumerKind, Verdict, decide, listed
from pylint_omni.index.derived import Built, Derived
from pylint_omni.index.paths import Location, matches_any
from pylint_omni.index.project_index import Hit, ProjectIndex
from pylint_omni.surfaces.analysis import SurfaceAnalysis
from pylint_omni.surfaces.decorators import ROUTE, route_path
from pylint_omni.surfaces.table import TEST_GLOBS

OWN_DECORATOR_LINES = 40  # a route's decorators sit right above its `def`
MIN_ROUTES = 5  # routes a project needs before the share it calls says where its clients are
MIN_CALLED_SHARE = 0.5  # the share of its routes a repository must call for an uncalled one to mean anything


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


@dataclass(frozen=True)
class _Route:
    """One registered handler, its path and who in the repository calls that path."""

    dotted: str
    verb: str
    path: str
    hits: tuple[Hit, ...]
    supported: bool  # production code, configuration, docs or examples call it


def _routes(index: ProjectIndex, analysis: SurfaceAnalysis) -> dict[str, list[_Route]]:
    """Every route of the project by file, with its callers (once per index state)."""
    found: dict[str, list[_Route]] = {}
    for relpath, spans in analysis.table.spans.items():
        for line, _, dotted in spans:
            surface = analysis.table.surfaces[dotted]
            paths = [(text, route_path(text)) for text in surface.decorators if route_path(text)]
            if not paths or surface.kind not in ("function", "method"):
                continue
            text, path = paths[0]
            assert path is not None
            match = ROUTE.match(text.strip())
            hits = _callers(index, path, relpath, line)
            supported = any(not matches_any(h.path, TEST_GLOBS) or index.location(h.path) is Location.PRODUCTION for h in hits)
            found.setdefault(relpath, []).append(_Route(dotted, match.group(1) if match else "route", path, tuple(hits), supported))
    return found


_ROUTES: Built[dict[str, list[_Route]]] = Built("surfaces.routes")


def clients_elsewhere(index: ProjectIndex, analysis: SurfaceAnalysis) -> str | None:
    """Why the repository is not where the routes' clients are (it calls too few of them), or None."""
    routes = [r for found in _ROUTES.of(index, lambda: _routes(index, analysis)).values() for r in found]
    called = sum(r.supported for r in routes)
    if len(routes) >= MIN_ROUTES and called < MIN_CALLED_SHARE * len(routes):
        return f"the repository calls {called} of its {len(routes)} routes: their clients live elsewhere (a UI, an SDK)"
    return None


def judge_routes(index: ProjectIndex, analysis: SurfaceAnalysis, relpath: str) -> list[RouteFinding]:
    """The routes of one production file that no supported caller in the repository reaches (none when the
    repository is not where the routes' clients are)."""
    found: list[RouteFinding] = []
    if clients_elsewhere(index, analysis) is not None:
        return found
    for route in _ROUTES.of(index, lambda: _routes(index, analysis)).get(relpath, ()):
        dotted, verb, path, hits = route.dotted, route.verb, route.path, list(route.hits)
        if route.supported:
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
