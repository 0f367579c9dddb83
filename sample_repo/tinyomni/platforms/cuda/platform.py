"""The CUDA platform: today the only one implemented in this repository."""

from __future__ import annotations

from tinyomni.platforms.interface import DevicePlatform


class CudaPlatform(DevicePlatform):
    def device_name(self) -> str:
        return "cuda"

    def memory_bytes(self) -> int:
        return 80 * 1024**3
