"""What a decorator does to the reachability of what it decorates.

- *transparent*: it wraps or marks the function and returns it (`property`,
  `lru_cache`, `torch.no_grad()`, `dataclass`, `contextmanager`, a project
  decorator): the decorated surface still needs a consumer;
- *route*: an HTTP handler registered on an app or router (`@app.get("/x")`,
  `@router.post("/v1/...")`, `@app.api_route`, `@app.websocket`): clients outside
  the repository call it by path;
- *register*: anything else (`@pytest.fixture`, `@field_validator`, `@app.on_event`,
  `@atexit.register`, `@CustomOp.register("x")`, a framework's decorator the
  index cannot read): the decorator hands the surface to a framework, which calls it.
A project decorator is transparent (a wrapper) unless its name says it hands the
function on (`@REGISTRY.register_module()`, `@register_x`, `@add_hook`, `@on_event`):
a registry the registries facts cannot key (no key, the class name as key) still
reaches what it registers.
"""

from __future__ import annotations

import re

from pylint_omni.evidence.frameworks import ROUTE_METHODS
from pylint_omni.index.vocabulary import GRAPH_CAPTURE_DECORATORS, decorator_tail, hands_on

TRANSPARENT = frozenset({
    "property", "cached_property", "staticmethod", "classmethod", "abstractmethod", "abstractproperty",
    "abstractclassmethod", "abstractstaticmethod", "lru_cache", "cache", "wraps", "contextmanager",
    "asynccontextmanager", "override", "final", "no_grad", "inference_mode", "enable_grad", "compile",
    "dataclass", "total_ordering", "deprecated", "setter", "getter", "deleter", "jit", "njit", "autotune",
    "heuristics", "script", "no_type_check", "singledispatch", "singledispatchmethod", "unique", "runtime_checkable",
    "remote", "disable", "dynamo_disable", "support_torch_compile", *GRAPH_CAPTURE_DECORATORS, "timer", "nvtx_range",
    "custom_fwd", "custom_bwd", "autocast", "unused", "ignore", "functools", "cached", "typecheck",
})
ROUTE = re.compile(r"^[\w.]+\.(" + "|".join(sorted(ROUTE_METHODS)) + r")\(\s*(?:path\s*=\s*)?['\"](/[^'\"]*)['\"]")


def route_path(text: str) -> str | None:
    """The HTTP path a route decorator registers (`router.post("/v1/x")` -> `/v1/x`), else None."""
    match = ROUTE.match(text.strip())
    return match.group(2) if match else None


def classify(text: str, imports: dict[str, str], local_names: frozenset[str], tops: frozenset[str]) -> str:
    """`transparent`, `route` or `register` for one decorator as written (see the module docstring)."""
    if route_path(text):
        return "route"
    tail = decorator_tail(text)
    if tail in TRANSPARENT:
        return "transparent"
    if hands_on(text):
        return "register"
    head = text.partition("(")[0].partition(".")[0].strip()
    if head in local_names:
        return "transparent"
    imported = imports.get(head, "")
    if imported.partition(".")[0] in tops:
        return "transparent"
    return "register"
