"""tinyomni: a miniature multi-stage serving engine (sample project for pylint-omni)."""

__version__ = "0.0.1"
