"""tinyomni.platforms.rocm."""
