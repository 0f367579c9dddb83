"""tinyomni.entrypoints."""
