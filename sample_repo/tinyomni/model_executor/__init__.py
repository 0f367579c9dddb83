"""tinyomni.model_executor."""
