"""tinyomni.platforms.cuda."""
