"""Attention backends, selected by name from the deploy config."""

from enum import Enum


class AttentionBackendEnum(Enum):
    """Each member names the class that implements the backend, as an import string."""

    FLASH = "tinyomni.attention.flash.FlashBackend"
    SDPA = "tinyomni.attention.sdpa.SdpaBackend"
    XFORMERS_LEGACY = "tinyomni.attention.legacy.LegacyXformersBackend"
