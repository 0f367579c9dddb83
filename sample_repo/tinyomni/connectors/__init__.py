"""tinyomni.connectors."""
