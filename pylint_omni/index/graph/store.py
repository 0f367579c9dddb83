"""The reference graph's cache: each file's resolution, keyed by what it depends on.

An entry is `{"stamp", "export", "deps", "resolved"}`: the file's stamp (size,
mtime and module name, or a digest of an editor buffer), the digest of its own
export table, the digest of every module table its resolution consulted, and the
resolution itself (`graph.resolve`). It is reused while the stamp and every
dependency's digest are unchanged, so editing one file re-resolves that file and
the files whose resolution went through its export table, nothing else.
The cache file sits beside the index's (same folder and key, plus a digest of the
graph's own code); writes are atomic, a corrupt file is ignored and rebuilt.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from pylint_omni.index.cache import read_json, write_json

STORE_VERSION = 1


def _code_digest() -> str:
    digest = hashlib.sha1()
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:10]


GRAPH_CODE_DIGEST = _code_digest()


def store_path(index_cache: Path) -> Path:
    """The graph cache beside an index cache file (`index-X.json` -> `graph-X-CODE.json`)."""
    stem = index_cache.stem.removeprefix("index-")
    return index_cache.with_name(f"graph-{stem}-{GRAPH_CODE_DIGEST}.json")


def file_stamp(entry: dict[str, Any]) -> str:
    """What identifies one version of a file's facts."""
    if entry.get("size") == -1:  # an editor buffer (`ProjectIndex.override`): never stored
        return f"buffer:{entry['digest']}"
    # The content when the scan kept its digest: a file touched but not changed keeps its resolution.
    content = entry.get("digest") or f"{entry.get('size')}:{entry.get('mtime')}"
    return f"{content}:{entry.get('module', '')}"


def load(path: Path) -> dict[str, dict[str, Any]]:
    data = read_json(path)
    if not isinstance(data, dict) or data.get("version") != STORE_VERSION or not isinstance(data.get("files"), dict):
        return {}
    return data["files"]


def save(path: Path, entries: dict[str, dict[str, Any]]) -> str | None:
    """Write atomically (editor buffers are left out); the reason when it could not be written."""
    kept = {rel: e for rel, e in entries.items() if not str(e.get("stamp", "")).startswith("buffer:")}
    try:
        write_json(path, {"version": STORE_VERSION, "files": kept}, ".graph-")
    except OSError as exc:
        return f"graph cache not written to {path.parent}: {exc.strerror or exc}"
    return None
