"""A stand-in upstream serving framework."""
