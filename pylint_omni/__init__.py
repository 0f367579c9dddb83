"""pylint-omni: pylint checkers that find proven simplifications, checked against a project index."""

from __future__ import annotations

__version__ = "0.1.0"

from pylint_omni.plugin import load_configuration, register

__all__ = ["register", "load_configuration", "__version__"]
