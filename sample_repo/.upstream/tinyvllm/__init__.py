"""A stand-in for the upstream engine tinyomni builds on (read with ast by pylint-omni, never imported)."""
