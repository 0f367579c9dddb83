"""Point-to-point sends between the stages of a pipeline."""

from torch.distributed import new_group


class PipelineLink:
    def __init__(self, rank: int, world: int) -> None:
        self.rank = rank
        self.world = world
        self.send_group = new_group(list(range(world)))  # planted: only the dead send/recv layer uses it
        self.recv_buffer = bytearray(1024)  # planted: likewise

    def next_rank(self) -> int:
        return (self.rank + 1) % self.world

    def send_tensor(self, payload: bytes) -> None:  # [unused-surface] the p2p layer nothing calls
        self.send_group.send(payload, self.next_rank())

    def recv_tensor(self) -> bytes:  # [unused-surface] likewise
        self.send_group.recv(self.recv_buffer, self.next_rank())
        return bytes(self.recv_buffer)
