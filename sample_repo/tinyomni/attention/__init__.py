"""tinyomni.attention."""
