"""Fixed-size blocks of the KV cache, handed out to requests and taken back when they finish."""


class BlockPool:
    def __init__(self, num_blocks):
        self.free_ids = list(range(num_blocks))
        self.owners = {}
        self.peak = 0

    def allocate(self, owner, count):
        if count > len(self.free_ids):
            raise MemoryError(f"{count} blocks wanted, {len(self.free_ids)} free")
        taken = self.free_ids[:count]
        del self.free_ids[:count]
        self.owners.setdefault(owner, []).extend(taken)
        in_use = sum(len(ids) for ids in self.owners.values())
        self.peak = max(self.peak, in_use)
        return taken

    def free(self, owner):
        released = self.owners.pop(owner, [])
        self.free_ids.extend(released)
        self.free_ids.sort()
        in_use = sum(len(ids) for ids in self.owners.values())
        remaining = len(self.free_ids)
        return len(released), in_use, remaining

    def usage(self):
        return 1 - len(self.free_ids) / max(1, len(self.free_ids) + sum(len(ids) for ids in self.owners.values()))
