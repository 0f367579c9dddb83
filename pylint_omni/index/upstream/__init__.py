"""The upstream index: packages the project builds on, read from their source, never imported.

`upstream_of(index)` gives the `UpstreamIndex` of a project: the packages of
`omni-upstream-packages` (default vllm, diffusers, transformers) and those found in
`omni-upstream-paths` folders, each only when the project imports it. Each is located
without importing it (`locate`), scanned with the same per-file scan as project
files and summarised (`package`), cached per distribution name and version, and
loaded only when a question about it is asked.

Public API: `upstream_of`, `UpstreamIndex` (`packages`, `unknowns`, `classes_named`,
`ancestors`, `attribute_uses`, `op_uses`, `package`), `UpstreamPackage` (`facts()` for
the per-file facts), and the records `UpstreamRef`, `UpstreamClass`, `Located`.
"""

from pylint_omni.index.upstream.index import UpstreamIndex, upstream_of
from pylint_omni.index.upstream.locate import Located
from pylint_omni.index.upstream.package import UpstreamClass, UpstreamPackage, UpstreamRef

__all__ = ["Located", "UpstreamClass", "UpstreamIndex", "UpstreamPackage", "UpstreamRef", "upstream_of"]
