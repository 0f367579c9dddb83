"""The tool's version: its one home (pyproject.toml reads it from here), imported by the package, the reports and
the command line. It imports nothing, so that whatever needs it never imports the plugin back."""

__version__ = "0.1.0"
