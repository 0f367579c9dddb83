"""The temporary folder where checkers write finding records while a report is asked for.

All pylint-omni reporters of one run (markdown, JSON and SARIF may be active at once)
share one folder. The first reporter created makes it and sets
`PYLINT_OMNI_FINDINGS_DIR` before linting starts, so `-j N` workers, which inherit the
environment, write there too; the last reporter closed removes it. A folder the
caller set in the environment is used as it is and left in place.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from pylint_omni.evidence.findings import FINDINGS_DIR_ENV


class SharedFindingsFolder:
    """Reference-counted findings folder of this process."""

    def __init__(self) -> None:
        self.path: Path | None = None
        self.users = 0
        self.owned = False
        self.creator_pid = 0

    def acquire(self) -> Path:
        if self.path is None:
            given = os.environ.get(FINDINGS_DIR_ENV)
            if given:
                self.path, self.owned = Path(given), False
            else:
                self.path, self.owned = Path(tempfile.mkdtemp(prefix="pylint-omni-findings-")), True
                os.environ[FINDINGS_DIR_ENV] = str(self.path)
                self.creator_pid = os.getpid()
        self.users += 1
        return self.path

    def release(self) -> None:
        self.users = max(0, self.users - 1)
        if self.users == 0:
            self.remove()

    def remove(self) -> None:
        """Delete the folder we made (only in the process that made it) and unset the variable."""
        if self.path is not None and self.owned and os.getpid() == self.creator_pid:
            shutil.rmtree(self.path, ignore_errors=True)
            if os.environ.get(FINDINGS_DIR_ENV) == str(self.path):
                del os.environ[FINDINGS_DIR_ENV]
        self.path, self.owned, self.users = None, False, 0


FINDINGS_FOLDER = SharedFindingsFolder()
# A run that stops before the reporters close (an error, --help) still leaves nothing behind.
atexit.register(FINDINGS_FOLDER.remove)
