"""tinyomni.worker."""
