"""Slots of the encoder cache: multimodal embeddings kept between the prefill steps of one request."""


class EncoderCache:
    def __init__(self, num_slots, embeddings_per_slot):
        self.free_ids = list(range(num_slots))
        self.owners = {}
        self.peak = 0
        self.embeddings = {}
        self.embeddings_per_slot = embeddings_per_slot

    def allocate(self, owner, count):
        if count > len(self.free_ids):
            raise MemoryError(f"{count} slots wanted, {len(self.free_ids)} free")
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

    def store(self, owner, media_id, embedding):
        slots = self.owners.get(owner) or self.allocate(owner, 1)
        self.embeddings[media_id] = (slots[0], embedding[: self.embeddings_per_slot])

    def lookup(self, media_id):
        found = self.embeddings.get(media_id)
        return None if found is None else found[1]
