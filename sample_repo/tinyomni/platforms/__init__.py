"""tinyomni.platforms."""
