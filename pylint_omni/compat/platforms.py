"""Standard-library modules that exist on some platforms or builds only, and the platforms a project declares.

`fcntl` is in the standard library of every CPython on Linux and macOS and of none on
Windows, so an `except ImportError` fallback around `import fcntl` is the Windows path
of the code: it is dead only when the project declares it runs on POSIX systems only.
The declaration is the project's `Operating System ::` trove classifiers (in
`pyproject.toml`, `setup.py` or `setup.cfg`, read by `declarations`), which packaging
tools and package indexes show to users: `Operating System :: POSIX :: Linux` alone
declares Linux only; `Operating System :: OS Independent` declares every platform. A
project that declares none may run anywhere, and the fallback stays.

`PLATFORM_ONLY` lists the modules the Python documentation marks "Availability: Unix"
or "Availability: Windows" (those removed since 3.12 are in `stdlib.MODULES_REMOVED`);
`BUILD_OPTIONAL` the extension modules a Python build leaves out when their C library
is missing at build time (a fallback around them is never dead, whatever the platform).
`SYSTEM_LIBRARY_IMPORTS` the installed packages whose import loads a system library pip does
not install: declared as a hard dependency, their import still fails where the library is
missing, so a fallback around them runs there (medium, never high).
"""

from __future__ import annotations

from dataclasses import dataclass

POSIX = frozenset({"linux", "macos", "posix"})  # "posix": another Unix (the BSDs, Solaris, ...)
WINDOWS = frozenset({"windows"})
EVERY_PLATFORM = POSIX | WINDOWS
PLATFORM_WORDS = {POSIX: "POSIX", WINDOWS: "Windows"}

PLATFORM_ONLY: dict[str, frozenset[str]] = {
    **{module: POSIX for module in ("fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "posix", "syslog")},
    **{module: WINDOWS for module in ("msvcrt", "winreg", "winsound", "_winapi", "nt", "_overlapped")},
}
BUILD_OPTIONAL = frozenset({
    "readline", "curses", "_curses", "tkinter", "_tkinter", "turtle", "sqlite3", "_sqlite3", "lzma", "_lzma",
    "bz2", "_bz2", "dbm.gnu", "_gdbm", "dbm.ndbm", "_dbm", "ssl", "_ssl", "ctypes", "_ctypes",
})
SYSTEM_LIBRARY_IMPORTS = {
    "cv2": "importing cv2 (opencv-python) loads libGL, which headless hosts and slim containers lack",
}
# `Operating System :: <rest>` -> the platforms it declares, by the rest's first words (the most precise first).
CLASSIFIER_PLATFORMS: tuple[tuple[str, frozenset[str]], ...] = (
    ("OS Independent", EVERY_PLATFORM),
    ("POSIX :: Linux", frozenset({"linux"})),
    ("Linux", frozenset({"linux"})),  # not a trove classifier, but projects write it (and mean it)
    ("MacOS", frozenset({"macos"})),
    ("Microsoft", WINDOWS),
    ("POSIX", frozenset({"posix"})),
    ("Unix", frozenset({"posix"})),
)
OS_CLASSIFIER = "Operating System ::"


@dataclass(frozen=True)
class DeclaredPlatforms:
    """The platforms a project's classifiers declare, each with where it says so."""

    entries: tuple[tuple[frozenset[str], str], ...]  # (platforms, "`Operating System :: POSIX :: Linux` (pyproject.toml:12)")

    @property
    def platforms(self) -> frozenset[str]:  # may hold "other" (an operating system no table above knows)
        return frozenset().union(*(platforms for platforms, _ in self.entries))

    def outside(self, available: frozenset[str]) -> str:
        """The first declaration of a platform outside `available` ("" when every declared platform is in it)."""
        return next((source for platforms, source in self.entries if not platforms <= available), "")

    def describe(self) -> str:
        first = self.entries[0][1]
        return first + (f" and {len(self.entries) - 1} more" if len(self.entries) > 1 else "")


def declared_platforms(classifiers: tuple[tuple[str, str], ...]) -> DeclaredPlatforms | None:
    """What the `Operating System ::` classifiers among `(classifier, source)` declare; None when there is none."""
    entries = []
    for text, source in classifiers:
        if text.startswith(OS_CLASSIFIER):
            rest = text[len(OS_CLASSIFIER):].strip()
            platforms = next((found for prefix, found in CLASSIFIER_PLATFORMS if rest.startswith(prefix)), frozenset({"other"}))
            entries.append((platforms, f"`{text.strip()}` ({source})"))
    return DeclaredPlatforms(tuple(entries)) if entries else None


def platform_doubt(module: str, declared: DeclaredPlatforms | None) -> str:
    """Why importing the standard-library `module` may fail where the project runs ("" when it cannot)."""
    head = module.partition(".")[0]
    if module in BUILD_OPTIONAL or head in BUILD_OPTIONAL:
        return f"{module} is left out of Python builds that lack its C library"
    available = PLATFORM_ONLY.get(head)
    if available is None:
        return ""
    where = f"{head} is {PLATFORM_WORDS[available]}-only"
    if declared is None:
        return f"{where} and the project declares no platform (no `Operating System ::` classifier)"
    outside = declared.outside(available)
    return f"{where} and the project declares {outside}" if outside else ""


def platform_guarantee(module: str, declared: DeclaredPlatforms | None) -> str:
    """For a platform-only module the project's declared platforms all have: the sentence that says so."""
    head = module.partition(".")[0]
    if head not in PLATFORM_ONLY or declared is None or platform_doubt(module, declared):
        return ""
    words = PLATFORM_WORDS[PLATFORM_ONLY[head]]
    return f"{head} is {words}-only and the project declares {words} only: {declared.describe()}"
