"""Fast element-wise ops, registered by `serving.fastops_registry`."""
