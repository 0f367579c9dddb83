"""tinyomni.model_executor.models."""
