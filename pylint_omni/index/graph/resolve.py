"""Resolution of one file's link facts against the project's export tables.

The result is JSON-ready, so that it can be cached per file (`graph.store`):
- `refs`: target -> `"line,via|line,via"` for every resolved reference: code chains (via
  `load`, `call`, `store`, `base`, `deco`, `annot`, `getattr`), imports (`import`),
  attributes on receivers of a known class (`attr-load`, `attr-call`, `attr-store`),
  the re-exports passed on the way (`hop`), and strings that name code — dotted
  and colon qualnames in code, YAML, JSON, TOML, entry points, docs, f-strings on
  module constants, relative `import_module` — (via: how the string was seen);
- `calls`, `flows`, `tables`, `subst`: the link facts with their chains resolved;
- `patterns`: `[module, shape, line]` qualnames built over a module's members;
- `mixed`: attribute -> lines where a receiver of unknown class reads it beside a known one.
Only project targets are kept for code chains; external targets are kept where a
family needs them (attribute owners, substitutions, calls into other packages).
"""

from __future__ import annotations

import re
from typing import Any

from pylint_omni.index.graph.exports import Resolver, Target
from pylint_omni.index.scan.tokens import DOTTED_PATH, decode_hits

STRING_VIAS = frozenset({
    "str", "fstr", "yaml-value", "yaml-key", "json", "toml", "resolver", "import_module", "getattr", "script", "doc",
})
KEPT_KINDS = frozenset({"module", "class", "def", "var", "member", "attribute"})


class FileResolver:
    """Resolves the facts of one file; `tops` are the project's top-level package names."""

    def __init__(self, resolver: Resolver, tops: frozenset[str]) -> None:
        self.resolver = resolver
        self.tops = tops
        self.refs: dict[str, list[str]] = {}

    def _target(self, dotted: str) -> Target | None:
        if dotted.partition(".")[0] not in self.tops:
            return None
        target = self.resolver.resolve(dotted)
        return target if target.kind in KEPT_KINDS else None

    def _ref(self, target: Target, line: int, via: str) -> None:
        self._add(target.dotted, line, via)
        if target.kind == "member":  # `Cls.attr` uses the class too
            self._add(target.dotted.rpartition(".")[0], line, "load" if via in ("call", "getattr") else via)
        for hop in target.hops:
            self._add(hop, line, "hop")
        for other in target.alternatives:
            self._add(other, line, via)

    def _add(self, target: str, line: int, via: str) -> None:
        item = f"{line},{via}"
        rows = self.refs.setdefault(target, [])
        if item not in rows:
            rows.append(item)

    def _code(self, dotted: str) -> str:
        """A chain's canonical path: the project definition it reaches, else the chain as written."""
        target = self._target(dotted)
        return target.dotted if target is not None else dotted

    def strings(self, refs: dict[str, str]) -> None:
        for token, encoded in refs.items():
            if "." not in token and ":" not in token:
                continue
            if token.partition(".")[0].partition(":")[0] not in self.tops or not DOTTED_PATH.match(token):
                continue
            hits = [(line, via) for line, via in decode_hits(encoded) if via in STRING_VIAS or via.startswith("entry-point:")]
            if not hits:
                continue
            target = self._target(token.replace(":", "."))
            if target is None:
                continue
            for line, via in hits:
                self._ref(target, line, via)

    def python(self, links: dict[str, Any]) -> dict[str, Any]:
        for chain, encoded in links.get("chains", {}).items():
            target = self._target(chain)
            if target is None:
                continue
            for line, ctx in decode_hits(encoded):
                self._ref(target, line, ctx)
        for dotted, line in links.get("imported", []):
            target = self._target(dotted)
            if target is not None:
                self._ref(target, line, "import")
            # The import runs each project module that hands the name on: GPT-NeoX's `mpu/random.py` re-exports
            # deepspeed's `checkpoint`, torchtune's deprecated `modules/tokenizers` shim re-exports the moved classes.
            for passed in ([dotted] if target is None else [dotted, *target.hops]) if dotted.partition(".")[0] in self.tops else []:
                parts = passed.split(".")
                size = self.resolver.module_prefix(parts)
                if size and size < len(parts):
                    self._add(".".join(parts[:size]), line, "import")
        for key, encoded in links.get("attrs", {}).items():
            owner, _, attr = key.partition("|")
            owner = self._code(owner)
            for line, ctx in decode_hits(encoded):
                self._add(f"{owner}.{attr}", line, f"attr-{ctx}")
        for dotted, line, via in links.get("dyn", []):
            target = self._target(dotted)
            if target is not None:
                self._ref(target, line, via)
        return {
            "calls": [[self._code(callee), line, args, self._resolve_args(kw)] for callee, line, args, kw in links.get("calls", [])],
            "flows": [[slot, self._value(value), line, how] for slot, value, line, how in links.get("flows", [])],
            "tables": [[self._code(chain), line, role, self._detail(detail)] for chain, line, role, detail in links.get("tables", [])],
            "subst": [[self._code(target), self._code(value), line] for target, value, line in links.get("subst", [])],
            "patterns": self._patterns(links.get("patterns", [])),
            "writers": links.get("writers", {}),
            **({"mixed": links["mixed"]} if links.get("mixed") else {}),
        }

    def _resolve_args(self, keywords: dict[str, str]) -> dict[str, str]:
        return {k: self._value(v) for k, v in keywords.items()}

    def _value(self, value: str) -> str:
        """`c:CHAIN` -> `c:TARGET`; `s:pkg.mod.Cls` -> `c:TARGET` when the string names project code."""
        kind, _, rest = value.partition(":")
        if kind == "c":
            return f"c:{self._code(rest)}"
        if kind == "s" and DOTTED_PATH.match(rest):
            target = self._target(rest.replace(":", "."))
            if target is not None:
                return f"c:{target.dotted}"
        return value

    def _detail(self, detail: str) -> str:
        if detail.startswith("transfer:"):
            return "transfer:" + self._code(detail.partition(":")[2])
        return detail

    def _patterns(self, patterns: list[list[Any]]) -> list[list[Any]]:
        """`pkg.mod.*` -> `[pkg.mod, shape, line]`: the deepest known module before the first hole."""
        out = []
        for shape, line in patterns:
            prefix = shape.partition("*")[0].rstrip(".")
            parts = [p for p in re.split(r"[.:]", prefix) if p]
            size = self.resolver.module_prefix(parts) if parts and parts[0] in self.tops else 0
            if size:
                out.append([".".join(parts[:size]), shape, line])
        return out


def resolve_file(facts: dict[str, Any], resolver: Resolver, tops: frozenset[str]) -> dict[str, Any]:
    """The resolved references of one file (any kind) and, for Python, its resolved link facts."""
    resolver.consulted = {}
    worker = FileResolver(resolver, tops)
    worker.strings(facts.get("refs", {}))
    extra: dict[str, Any] = {}
    links = facts.get("links")
    if links:
        extra = worker.python(links)
    for slot, value, line, how in facts.get("flows", []):  # YAML `*_cls:` keys (`scan.data_scan`)
        extra.setdefault("flows", []).append([slot, worker._value(value), line, how])
    refs = {target: "|".join(rows) for target, rows in worker.refs.items()}
    return {"refs": refs, **extra, "deps": dict(resolver.consulted)}
