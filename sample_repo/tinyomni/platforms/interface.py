"""What a hardware platform provides (trap: vendors plug in beside cuda/ in parallel folders)."""

from __future__ import annotations

from abc import ABC, abstractmethod


class DevicePlatform(ABC):
    @abstractmethod
    def device_name(self) -> str:
        """Name of the device type."""

    @abstractmethod
    def memory_bytes(self) -> int:
        """Memory of one device."""
