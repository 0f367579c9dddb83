"""Scanners that message families hand to the index, so the index never imports a family.

A family that needs a per-file fact of every module (a fingerprint of each function,
the fields of each config class) registers a function here when the plugin loads
(`plugin.register_scanners`). While the index reads a Python file it calls every
registered scanner with the parsed tree and stores the JSON-ready result under
`facts["extra"][key]`; `ProjectIndex.extra(relpath, key)` gives it back. The
source of the scanners' packages is part of the cache digest: a changed scanner
never reuses stale facts.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable


@dataclass(frozen=True)
class ModuleContext:
    """What a scanner knows of the module besides its tree."""

    module: str  # dotted module name
    relpath: str  # root-relative posix path
    is_package: bool
    imports: dict[str, str]  # local name -> dotted path it binds (resolved relative imports)
    source: str  # the module's text


PythonScanner = Callable[[ast.Module, ModuleContext], Any]
_PYTHON_SCANNERS: dict[str, PythonScanner] = {}
_AUDITED_ONLY: set[str] = set()


def register_python_scanner(key: str, scanner: PythonScanner, audited_only: bool = False) -> None:
    """Run `scanner` on every Python file the index reads (`audited_only`: only on the files the audit
    reports on, not tests, examples or benchmarks); its result is stored under `key`."""
    _PYTHON_SCANNERS[key] = scanner
    if audited_only:
        _AUDITED_ONLY.add(key)
    else:
        _AUDITED_ONLY.discard(key)


def python_scanners(audited: bool | None = True) -> dict[str, PythonScanner]:
    """The scanners of a file the audit reports on (`audited`), or of a validation file; none for an upstream
    file (`audited` None): its families' facts are made per file when asked (`upstream.package`)."""
    if audited is None:
        return {}
    return {key: scanner for key, scanner in _PYTHON_SCANNERS.items() if audited or key not in _AUDITED_ONLY}


def scanners_digest() -> str:
    """Digest of the registered scanners' source (and their keys).

    A scanner may be spread over its family's modules (the fingerprints of the copy
    family tokenize in a module of their own), so every module of the scanner's
    package counts: editing any of them invalidates the cached facts.
    """
    digest = hashlib.sha1()
    for key in sorted(_PYTHON_SCANNERS):
        digest.update(f"{key} {key in _AUDITED_ONLY}".encode())
        source = inspect.getsourcefile(_PYTHON_SCANNERS[key])
        if source:
            for module in sorted(Path(source).parent.glob("*.py")):
                digest.update(module.read_bytes())
    return digest.hexdigest()[:12]
