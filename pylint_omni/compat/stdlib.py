"""When standard-library modules and names appeared (and went), for `ImportError` fallbacks.

`sys.stdlib_module_names` lists the modules of the running interpreter only; a
project that allows Python 3.10 may fall back from `tomllib` (3.11) or
`typing.NotRequired` (3.11), and those fallbacks are live. The tables cover the
modules and names added since Python 3.7 that projects commonly guard, and the
modules removed since 3.12 (a fallback for them is live on newer Pythons). A name
missing from `NAMES_ADDED` is unknown: a fallback around it is never called dead.
"""

from __future__ import annotations

import sys

from packaging.version import Version

MODULES_ADDED: dict[str, str] = {
    "contextvars": "3.7", "dataclasses": "3.7", "importlib.resources": "3.7", "importlib.metadata": "3.8",
    "zoneinfo": "3.9", "graphlib": "3.9", "tomllib": "3.11", "wsgiref.types": "3.11",
}
MODULES_REMOVED = frozenset({
    "distutils", "imp", "asynchat", "asyncore", "smtpd",  # 3.12
    "aifc", "audioop", "cgi", "cgitb", "chunk", "crypt", "imghdr", "mailcap", "msilib", "nis", "nntplib",
    "ossaudiodev", "pipes", "sndhdr", "spwd", "sunau", "telnetlib", "uu", "xdrlib", "lib2to3",  # 3.13
})
NAMES_ADDED: dict[tuple[str, str], str] = {
    **{("typing", n): "3.8" for n in ("Literal", "Final", "final", "Protocol", "TypedDict", "SupportsIndex", "runtime_checkable", "get_origin", "get_args")},
    **{("typing", n): "3.9" for n in ("Annotated",)},
    **{("typing", n): "3.10" for n in ("ParamSpec", "TypeAlias", "Concatenate", "TypeGuard", "is_typeddict", "ParamSpecArgs", "ParamSpecKwargs")},
    **{("typing", n): "3.11" for n in ("NotRequired", "Required", "Self", "LiteralString", "Never", "TypeVarTuple", "Unpack",
                                       "assert_never", "assert_type", "reveal_type", "dataclass_transform", "get_overloads", "clear_overloads")},
    **{("typing", n): "3.12" for n in ("override", "TypeAliasType", "get_original_bases")},
    **{("typing", n): "3.13" for n in ("TypeIs", "ReadOnly", "get_protocol_members", "is_protocol", "NoDefault")},
    **{("typing", n): "3.5" for n in ("Any", "Callable", "Dict", "List", "Optional", "Tuple", "Union", "TypeVar", "Generic",
                                      "Iterable", "Iterator", "Sequence", "Mapping", "Set", "Type", "cast", "overload",
                                      "TYPE_CHECKING", "NamedTuple", "ClassVar", "NoReturn", "Awaitable", "AsyncIterator")},
    ("functools", "cached_property"): "3.8", ("functools", "cache"): "3.9", ("functools", "singledispatchmethod"): "3.8",
    ("functools", "lru_cache"): "3.2", ("functools", "partial"): "3.0", ("functools", "wraps"): "3.0", ("functools", "reduce"): "3.0",
    ("itertools", "pairwise"): "3.10", ("itertools", "batched"): "3.12", ("math", "lcm"): "3.9", ("math", "prod"): "3.8",
    ("math", "isqrt"): "3.8", ("contextlib", "chdir"): "3.11", ("contextlib", "nullcontext"): "3.7",
    ("contextlib", "asynccontextmanager"): "3.7", ("contextlib", "aclosing"): "3.10", ("enum", "StrEnum"): "3.11",
    ("enum", "verify"): "3.11", ("datetime", "UTC"): "3.11", ("asyncio", "TaskGroup"): "3.11", ("asyncio", "timeout"): "3.11",
    ("asyncio", "Runner"): "3.11", ("asyncio", "to_thread"): "3.9", ("importlib.resources", "files"): "3.9",
    ("importlib.resources", "as_file"): "3.9", ("importlib.metadata", "packages_distributions"): "3.10",
    ("importlib.metadata", "version"): "3.8", ("importlib.metadata", "distribution"): "3.8",
    ("importlib.metadata", "PackageNotFoundError"): "3.8", ("shlex", "join"): "3.8", ("statistics", "correlation"): "3.10",
    ("types", "NoneType"): "3.10", ("types", "EllipsisType"): "3.10", ("types", "GenericAlias"): "3.9",
    ("dataclasses", "KW_ONLY"): "3.10", ("hashlib", "file_digest"): "3.11", ("operator", "call"): "3.11",
    ("collections.abc", "Buffer"): "3.12", ("warnings", "deprecated"): "3.13", ("copy", "replace"): "3.13",
    ("os", "PathLike"): "3.6", ("pathlib", "Path"): "3.4",
}
ANCIENT = Version("3.0")


def stdlib_module_since(module: str) -> Version | None:
    """The Python version a standard-library module has existed since, or None (not stdlib, or removed)."""
    if module in MODULES_ADDED:
        return Version(MODULES_ADDED[module])
    head = module.partition(".")[0]
    if head in MODULES_REMOVED or head not in sys.stdlib_module_names and head not in MODULES_ADDED:
        return None
    return ANCIENT


def name_added(module: str, name: str, strict: bool = True) -> Version | None:
    """When `from module import name` started to work; None when unknown (and `strict`)."""
    found = NAMES_ADDED.get((module, name))
    if found is not None:
        return Version(found)
    return None if strict else ANCIENT
