"""tinyomni.engine."""
