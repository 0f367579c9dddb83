"""Reads the settings module's variables as attributes (the consumers of bad.py's env table)."""

import bad


def log_settings():
    return bad.APP_LOG_LEVEL, bad.APP_CACHE_DIR
