"""A tiny stand-in for an upstream framework (read by pylint-omni's upstream index, never imported)."""
