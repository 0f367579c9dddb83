"""Flash attention backend."""


class FlashBackend:
    name = "flash"

    def forward(self, q, k, v):
        return q @ k.transpose(-1, -2) @ v
