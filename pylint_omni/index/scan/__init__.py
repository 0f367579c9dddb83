"""Scanners: one per kind of file, each returning plain JSON-ready facts."""
