"""The index room: files -> per-file facts -> project-wide lookups, cached on disk.

Discovery (which files, what kind), safe reading, the scanners (`scan/`), the cache,
the scan pool, path classes and globs, the `ProjectIndex` and the class graph built
from its facts, and the read-only indexes of external consumer roots (`external`). It reads files with `ast`, PyYAML and tomllib; it never imports or
runs analysed code.

May import: the standard library, PyYAML, tomllib and its own modules. Never the
evidence room, a message family, the reporters or pylint: everything downstream
asks the index, the index asks nothing of them.
"""
