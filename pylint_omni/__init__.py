"""pylint-omni: pylint checkers that find proven simplifications, checked against a project index."""

from __future__ import annotations

from importlib.metadata import version

from pylint_omni.plugin import load_configuration, register

__version__ = version("pylint-omni")  # pyproject.toml holds it; the reporters read it so too (no import of this module)

__all__ = ["register", "load_configuration", "__version__"]
