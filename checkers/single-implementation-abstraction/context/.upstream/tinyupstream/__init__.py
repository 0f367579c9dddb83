"""A stand-in upstream framework (read by the upstream index, never imported)."""
