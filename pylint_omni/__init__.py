"""pylint-omni: pylint checkers that find proven simplifications, checked against a project index."""

from __future__ import annotations

from pylint_omni.plugin import load_configuration, register
from pylint_omni.version import __version__

__all__ = ["register", "load_configuration", "__version__"]
