"""The on-disk cache of per-file facts: one JSON file per (project root, scan settings).

An entry is reused when the file's size, mtime and module name are unchanged. The
cache lives outside the analysed tree by default (`$PYLINT_OMNI_CACHE_DIR`, else
`$XDG_CACHE_HOME/pylint-omni`, else `~/.cache/pylint-omni`); writes are atomic
(temporary file + rename), so parallel workers never see half a file; a corrupt or
unreadable cache is ignored and rebuilt, an unwritable one is reported and skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from pylint_omni.index.scanners import scanners_digest

SCHEMA_VERSION = 5


def _scanner_fingerprint() -> str:
    """Digest of the scanners' own source: a changed scanner never reuses stale facts."""
    digest = hashlib.sha1()
    scan_dir = Path(__file__).parent / "scan"
    for source in sorted(scan_dir.glob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


SCANNER_FINGERPRINT = _scanner_fingerprint()


def default_cache_dir() -> Path:
    env = os.environ.get("PYLINT_OMNI_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "pylint-omni"


def cache_file(cache_dir: Path, root: Path, settings_key: tuple[Any, ...]) -> Path:
    scanners = f"{SCANNER_FINGERPRINT}|{scanners_digest()}"
    digest = hashlib.sha1(f"{SCHEMA_VERSION}|{scanners}|{root}|{settings_key!r}".encode()).hexdigest()[:16]
    return cache_dir / f"index-{root.name}-{digest}.json"


def load_document(path: Path) -> dict[str, Any] | None:
    """A cached JSON document of this schema, or None when missing, corrupt or of another schema."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("version") != SCHEMA_VERSION:
        return None
    return data


def save_document(path: Path, data: dict[str, Any]) -> str | None:
    """Write a JSON document atomically (with the schema version); the reason when it could not be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".index-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump({"version": SCHEMA_VERSION, **data}, handle, separators=(",", ":"))
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as exc:
        return f"cache not written to {path.parent}: {exc.strerror or exc}"
    return None


def derived_file(cache_dir: Path, root: Path, name: str, key: str) -> Path:
    """Where a result derived from the index (a family's per-project cache) lives beside the index cache."""
    digest = hashlib.sha1(f"{SCHEMA_VERSION}|{scanners_digest()}|{root}|{key}".encode()).hexdigest()[:16]
    return cache_dir / f"{name}-{root.name}-{digest}.json"


def load_entries(path: Path) -> dict[str, dict[str, Any]]:
    """Cached entries by relative path; empty when missing, corrupt or of another schema."""
    data = load_document(path)
    if data is None or not isinstance(data.get("files"), dict):
        return {}
    return data["files"]


def save_entries(path: Path, root: Path, entries: dict[str, dict[str, Any]]) -> str | None:
    """Write atomically; returns the reason when the cache could not be written."""
    return save_document(path, {"root": str(root), "files": entries})
