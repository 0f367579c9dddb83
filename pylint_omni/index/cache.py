"""The on-disk cache of per-file facts: one JSON file per (project root, scan settings).

An entry is reused when the file's size, mtime and module name are unchanged. The
cache lives outside the analysed tree by default (`$PYLINT_OMNI_CACHE_DIR`, else the
user cache folder from `platformdirs`); writes are atomic (temporary file + rename),
so parallel workers never see half a file; a corrupt or unreadable cache is ignored
and rebuilt, an unwritable one is reported and skipped. Each write prunes the folder:
caches unused for 30 days go, then the least recently used ones beyond 1 GiB.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

from platformdirs import user_cache_dir

from pylint_omni.index.collector import keep_out, no_collections
from pylint_omni.index.scanners import scanners_digest

SCHEMA_VERSION = 5
MAX_CACHE_BYTES = 1 << 30  # all index caches of one cache folder together
MAX_AGE_DAYS = 30  # an index cache no run has used for this long is deleted


def _scanner_fingerprint() -> str:
    """Digest of the scanners' own source: a changed scanner never reuses stale facts."""
    digest = hashlib.sha1()
    scan_dir = Path(__file__).parent / "scan"
    for source in sorted(scan_dir.glob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


SCANNER_FINGERPRINT = _scanner_fingerprint()


def default_cache_dir() -> Path:
    """`$PYLINT_OMNI_CACHE_DIR`, else the platform's user cache folder (`platformdirs`:
    `$XDG_CACHE_HOME/pylint-omni` or `~/.cache/pylint-omni` on Linux, `~/Library/Caches` on macOS)."""
    env = os.environ.get("PYLINT_OMNI_CACHE_DIR")
    if env:
        return Path(env)
    return Path(user_cache_dir("pylint-omni", appauthor=False))


def cache_file(cache_dir: Path, root: Path, settings_key: tuple[Any, ...]) -> Path:
    scanners = f"{SCANNER_FINGERPRINT}|{scanners_digest()}"
    digest = hashlib.sha1(f"{SCHEMA_VERSION}|{scanners}|{root}|{settings_key!r}".encode()).hexdigest()[:16]
    return cache_dir / f"index-{root.name}-{digest}.json"


def read_json(path: Path) -> Any:
    """A JSON file's content, or None when it is missing or corrupt."""
    try:
        with open(path, encoding="utf-8") as handle, no_collections():
            return json.load(handle)
    except (OSError, ValueError, RecursionError):
        return None


def _chunks(document: dict[str, Any]) -> Iterator[str]:
    """The compact JSON text of a document, a top-level value or one item of a top-level dict at a time.

    `json.dump` to a handle runs the pure-Python encoder, several times slower than the C
    one `dumps` uses; one `dumps` of the whole document holds a string of tens of
    megabytes at the run's peak. Per item, the C encoder does the work and the largest
    string is one file's facts. The text is the same as `dumps(document)`'s.
    """
    dumps = json.JSONEncoder(separators=(",", ":")).encode

    def key(name: Any) -> str:  # JSON keys are strings: `dumps` writes 1 or True as "1", "true"
        return dumps(name if isinstance(name, str) else dumps(name))

    yield "{"
    for number, (name, value) in enumerate(document.items()):
        yield ("," if number else "") + key(name) + ":"
        if isinstance(value, dict) and value:
            batch: list[str] = []
            for inner, (member, item) in enumerate(value.items()):
                batch.append(("{" if inner == 0 else ",") + key(member) + ":" + dumps(item))
                if len(batch) == 256:  # fewer, larger writes
                    yield "".join(batch)
                    batch = []
            yield "".join(batch) + "}"
        else:
            yield dumps(value)
    yield "}"


def write_json(path: Path, document: dict[str, Any], prefix: str) -> None:
    """Write a JSON document atomically (a temporary file `prefix*.tmp` beside it, then a rename); raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            for chunk in _chunks(document):
                handle.write(chunk)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load_document(path: Path) -> dict[str, Any] | None:
    """A cached JSON document of this schema, or None when missing, corrupt or of another schema.

    A cache that is read is marked used (its mtime), so pruning keeps what runs use.
    """
    data = read_json(path)
    if data is None:
        return None
    try:
        os.utime(path)
    except OSError:
        return None
    if not isinstance(data, dict) or data.get("version") != SCHEMA_VERSION:
        return None
    return data


def save_document(path: Path, data: dict[str, Any]) -> str | None:
    """Write a JSON document atomically (with the schema version); the reason when it could not be written."""
    try:
        write_json(path, {"version": SCHEMA_VERSION, **data}, ".index-")
        prune(path.parent, keep=path)
    except OSError as exc:
        return _not_written(path, exc)
    return None


def unwritable(path: Path) -> str | None:
    """Why a cache file at `path` could not be written (`save_document`'s reason), or None when its folder is writable."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not os.access(path.parent, os.W_OK | os.X_OK):
            raise PermissionError(13, "Permission denied")
    except OSError as exc:
        return _not_written(path, exc)
    return None


def _not_written(path: Path, exc: OSError) -> str:
    return f"cache not written to {path.parent}: {exc.strerror or exc}"


def derived_file(cache_dir: Path, root: Path, name: str, key: str) -> Path:
    """Where a result derived from the index (a family's per-project cache) lives: beside the index, pruned with it."""
    digest = hashlib.sha1(f"{SCHEMA_VERSION}|{scanners_digest()}|{root}|{key}".encode()).hexdigest()[:16]
    return cache_dir / f"index-{root.name}-{digest}-{name}.json"


def load_entries(path: Path) -> dict[str, dict[str, Any]]:
    """Cached entries by relative path; empty when missing, corrupt or of another schema."""
    data = load_document(path)
    if data is None or not isinstance(data.get("files"), dict):
        return {}
    keep_out()  # the cached facts live for the run: out of the cyclic collector's walks (`index.collector`)
    return data["files"]


def save_entries(path: Path, root: Path, entries: dict[str, dict[str, Any]]) -> str | None:
    """Write atomically; returns the reason when the cache could not be written."""
    return save_document(path, {"root": str(root), "files": entries})


def prune(folder: Path, keep: Path, max_bytes: int = MAX_CACHE_BYTES, max_age_days: float = MAX_AGE_DAYS) -> list[Path]:
    """Delete index caches unused for `max_age_days`, then the least recently used ones over `max_bytes`.

    One cache exists per project root and option set, so a folder shared by many
    projects and option experiments grows without bound unless something prunes it.
    Only this tool's own files (`index-*.json`) are ever deleted, never `keep`.
    """
    now = time.time()
    found: list[tuple[float, int, Path]] = []
    for candidate in folder.glob("index-*.json"):
        try:
            stat = candidate.stat()
        except OSError:
            continue
        found.append((stat.st_mtime, stat.st_size, candidate))
    removed: list[Path] = []
    total = sum(size for _, size, _ in found)
    for mtime, size, candidate in sorted(found):  # oldest first
        too_old = now - mtime > max_age_days * 86400
        if candidate == keep or not (too_old or total > max_bytes):
            continue
        try:
            candidate.unlink()
        except OSError:
            continue
        total -= size
        removed.append(candidate)
    return removed
