"""The upstream index: packages the project builds on, read from their source, never imported.

`upstream_of(index)` gives the `UpstreamIndex` of a project: the packages of
`omni-upstream-packages` (default vllm, diffusers, transformers) and those found in
`omni-upstream-paths` folders, each only when the project imports it. Each is located
without importing it (`locate`), scanned with the same per-file scan as project
files and summarised (`package`; names read, accepted and defined in `names`), cached per
distribution name and version (shared by every project using that version), and loaded
only when a question about it is asked; a file's own facts are scanned only when a
family asks for that file. The
dist-info folder found beside a package in a path (`Located.metadata`) gives the
version and the `Requires-Dist` pins of what the project runs on.

Public API: `upstream_of`, `build_upstream` (every package into the cache, for a cold run's child), `UpstreamIndex` (`packages`, `unknowns`, `classes_named`,
`ancestors`, `attribute_uses`, `reading_attribute`, `op_uses`, `reads`, `accepts`, `defines`,
`package`), `UpstreamPackage` (`files`, `facts_of(relpath)` for one file's facts, `reads`, `accepts`, `defines`),
the records `UpstreamRef`, `UpstreamClass`, `Located`, and `version_doubts` (why the indexed
version may not be the one the project runs on: another pin in its install files, or
names it imports that the indexed version lacks).
"""

from pylint_omni.index.upstream.index import UpstreamIndex, build_upstream, upstream_of, version_doubts
from pylint_omni.index.upstream.locate import Located
from pylint_omni.index.upstream.package import UpstreamClass, UpstreamPackage, UpstreamRef

__all__ = ["Located", "UpstreamClass", "UpstreamIndex", "UpstreamPackage", "UpstreamRef", "build_upstream", "upstream_of",
           "version_doubts"]
