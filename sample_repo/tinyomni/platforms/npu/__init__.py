"""tinyomni.platforms.npu."""
