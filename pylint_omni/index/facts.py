"""The facts that cross rooms, typed: what a scanner records and every family reads.

Facts stay JSON-ready (the cache stores them as they are), so they are TypedDicts:
a family reads `registry["entries"]` and a type checker knows what it gets. Hits,
definitions and consumers travel as frozen dataclasses (`project_index.Hit`,
`project_index.Definition`, `evidence.consumers.Consumer`).
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

RegistryForm = Literal[
    "dict", "table", "enum", "decorator", "setitem", "register-call", "update", "merged", "lazy-export", "custom-op"
]


class _ClassOptional(TypedDict, total=False):
    fields: str  # annotated names of the class body, comma-separated (absent when none)


class ClassFact(_ClassOptional):
    """A class statement: spans, bases as written and resolved through imports, methods by role."""

    name: str
    qual: str  # dotted inside its module (`Outer.Inner`)
    line: int
    col: int
    end: int
    bases: list[str]
    bases_written: list[str]
    decorators: list[str]
    methods: list[str]
    abstract: list[str]  # @abstractmethod
    notimpl: list[str]  # body is only `raise NotImplementedError`
    defaulted: list[str]  # methods with a working body
    protocol: bool
    enum: bool
    nested: bool


class _FunctionOptional(TypedDict, total=False):
    params: str  # "self,a,b,*args,**kwargs": the parameters, comma-separated (absent without any)


class FunctionFact(_FunctionOptional):
    """A function or method statement."""

    name: str
    qual: str
    line: int
    end: int
    decorators: list[str]
    toplevel: bool


class RegistryEntryFact(TypedDict):
    """One key of a registry and the code it names."""

    key: str
    line: int
    col: int
    span: list[int]  # [first, last] lines that belong to the entry itself
    target: str | None  # dotted path (None: a lambda)
    suffix: bool  # `target` is only a tail of the real module path


class RegistryFact(TypedDict):
    """A string-keyed table that names code, in one of six forms (`scan.registry_scan`)."""

    name: str
    form: RegistryForm
    line: int
    end: int
    entries: list[RegistryEntryFact]


DefinitionFact = ClassFact | FunctionFact


class ProvenanceFact(TypedDict):
    """Where a file's code comes from, as its comments say (`scan.provenance`)."""

    copied: list[Any] | None  # [line, text] of a header saying "Adapted from ..." (or copied, ported...)
    holders: list[str]  # copyright holders named in the header, normalised
    markers: list[list[Any]]  # [line, text] of comments saying the next definition is a copy
    generated: bool  # the header says the file is generated


class LinkFacts(TypedDict, total=False):
    """What the reference graph resolves (`scan.link_scan`); chains and attrs are `"line,ctx|..."` encoded."""

    bindings: dict[str, list[str]]  # module-level name -> [kind, target]
    all: list[str] | None
    lazy: dict[str, str]  # lazy-export name -> dotted target
    chains: dict[str, str]  # dotted chain -> "line,ctx|..."
    attrs: dict[str, str]  # "OwnerClass|attr" -> "line,ctx|..."
    calls: list[list[Any]]  # [callee, line, [arg summaries], {keyword: summary}]
    flows: list[list[Any]]  # [slot, value, line, how]
    tables: list[list[Any]]  # [table chain, line, role, detail]
    patterns: list[list[Any]]  # [shape, line]
    dyn: list[list[Any]]  # [absolute module, line, via]
    subst: list[list[Any]]  # [replaced chain, replacement chain, line]
    imported: list[list[Any]]  # [dotted, line]
    dict_keys: dict[str, list[int]]  # string key -> lines where a dict display uses it
    writers: dict[str, list[int]]  # function -> positions of parameters it only writes into


class PythonFacts(TypedDict, total=False):
    """Everything the index records of one Python file (`scan.python_scan.scan_python`)."""

    kind: str
    module: str
    error: str | None
    refs: dict[str, str]  # token -> "line,via|line,via" (`scan.tokens.encode_hits`)
    imports: dict[str, str]  # local name -> dotted path it binds
    top_imports: list[list[Any]]  # [module, line] of each import statement of the module body (no try, if or def)
    classes: list[ClassFact]
    functions: list[FunctionFact]
    registries: list[RegistryFact]
    links: LinkFacts
    attr_writes: list[list[Any]]
    bound_calls: list[list[Any]]
    sent_types: list[str]
    reflected_types: list[str]
    provenance: ProvenanceFact
    extra: dict[str, Any]  # facts of scanners that message families registered (`scanners`)
