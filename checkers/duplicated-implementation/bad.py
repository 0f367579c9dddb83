"""Copies inside one module: exact, an override of the inherited body, drifted, log-only, a pasted block, a class
repeating two methods of another."""

import logging
import time

import torch

logger = logging.getLogger(__name__)


def pack_frames(frames, frame_size):
    packed = []
    for frame in frames:
        padded = frame + [0] * (frame_size - len(frame))
        packed.append(padded[:frame_size])
    total = sum(len(p) for p in packed)
    return packed, total


def pack_audio_frames(chunks, size):  # [duplicated-implementation]
    out = []
    for chunk in chunks:
        filled = chunk + [0] * (size - len(chunk))
        out.append(filled[:size])
    count = sum(len(p) for p in out)
    return out, count


class Runner:
    def __init__(self, max_batch, pad_id):
        self.max_batch = max_batch
        self.pad_id = pad_id

    def prepare(self, requests):
        chosen = sorted(requests)[: self.max_batch]
        longest = max((len(requests[r]) for r in chosen), default=0)
        rows = []
        for request_id in chosen:
            tokens = requests[request_id]
            rows.append(tokens + [self.pad_id] * (longest - len(tokens)))
        return chosen, rows


class GenerationRunner(Runner):
    def prepare(self, requests):  # [duplicated-implementation]
        chosen = sorted(requests)[: self.max_batch]
        longest = max((len(requests[r]) for r in chosen), default=0)
        rows = []
        for rid in chosen:
            toks = requests[rid]
            rows.append(toks + [self.pad_id] * (longest - len(toks)))
        return chosen, rows


def apply_step(states, sampled, eos_id):
    finished = []
    for request_id, token in sampled.items():
        state = states[request_id]
        state.output_ids.append(token)
        if state.num_placeholders > 0:
            state.num_placeholders -= 1
        if token == eos_id:
            finished.append(request_id)
    return finished


def apply_step_async(states, sampled, eos_id):  # [duplicated-implementation]
    finished = []
    for request_id, token in sampled.items():
        state = states[request_id]
        state.output_ids.append(token)
        if token == eos_id:
            finished.append(request_id)
    return finished


def wait_ready(stages, timeout):
    deadline = time.monotonic() + timeout
    ready = []
    while len(ready) < len(stages) and time.monotonic() < deadline:
        for index, stage in enumerate(stages):
            if index not in ready and stage.poll():
                ready.append(index)
                logger.info("[sync] stage %d ready", index)
        time.sleep(0.05)
    return ready


def wait_ready_async(stages, timeout):  # [duplicated-implementation]
    deadline = time.monotonic() + timeout
    ready = []
    while len(ready) < len(stages) and time.monotonic() < deadline:
        for index, stage in enumerate(stages):
            if index not in ready and stage.poll():
                ready.append(index)
                logger.info("[async] stage %d is ready", index)
        time.sleep(0.05)
    return ready


class TalkerHead(torch.nn.Module):
    def forward(self, hidden, scale):
        hidden = hidden * scale
        key = (hidden.shape[0], hidden.dtype)
        entry = self.graphs.get(key)
        if entry is None:
            static_in = hidden.clone()
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                static_out = self.body(static_in)
            entry = self.graphs[key] = (graph, static_in, static_out)
        graph, static_in, static_out = entry
        static_in.copy_(hidden)
        graph.replay()
        return static_out.clone().argmax(dim=-1)


class VocoderHead(torch.nn.Module):
    def forward(self, codes):
        frames = self.embed(codes).sum(dim=1)
        frames = frames / codes.shape[1]
        key = (frames.shape[0], frames.dtype)  # [duplicated-implementation]
        entry = self.graphs.get(key)
        if entry is None:
            static_in = frames.clone()
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                static_out = self.body(static_in)
            entry = self.graphs[key] = (graph, static_in, static_out)
        graph, static_in, static_out = entry
        static_in.copy_(frames)
        graph.replay()
        wave = static_out.clone()
        return wave.flatten(1) * 0.5


class PagePool:
    def __init__(self, pages):
        self.free_pages = list(range(pages))
        self.owners = {}

    def take(self, owner, count):
        if count > len(self.free_pages):
            raise MemoryError("out of pages")
        taken = self.free_pages[:count]
        del self.free_pages[:count]
        self.owners.setdefault(owner, []).extend(taken)
        in_use = sum(len(pages) for pages in self.owners.values())
        return taken, in_use

    def give_back(self, owner):
        released = self.owners.pop(owner, [])
        self.free_pages.extend(released)
        self.free_pages.sort()
        in_use = sum(len(pages) for pages in self.owners.values())
        remaining = len(self.free_pages)
        return len(released), in_use, remaining


class AdapterSlots:  # [duplicated-implementation]
    """Repeats two methods of PagePool: the class is the copy (derive it from PagePool), not each method."""

    def __init__(self, slots):
        self.free_pages = list(range(slots))
        self.owners = {}
        self.adapters = {}

    def take(self, owner, count):
        if count > len(self.free_pages):
            raise MemoryError("out of pages")
        taken = self.free_pages[:count]
        del self.free_pages[:count]
        self.owners.setdefault(owner, []).extend(taken)
        in_use = sum(len(pages) for pages in self.owners.values())
        return taken, in_use

    def give_back(self, owner):
        released = self.owners.pop(owner, [])
        self.free_pages.extend(released)
        self.free_pages.sort()
        in_use = sum(len(pages) for pages in self.owners.values())
        remaining = len(self.free_pages)
        return len(released), in_use, remaining

    def load(self, owner, adapter):
        slot = self.owners.get(owner) or self.take(owner, 1)[0]
        self.adapters[owner] = (slot[0], adapter)

    def unload(self, owner):
        self.adapters.pop(owner, None)
        return self.give_back(owner)

    def loaded(self):
        return sorted(self.adapters)

    def adapter_of(self, owner):
        found = self.adapters.get(owner)
        return None if found is None else found[1]

    def swap(self, owner, adapter):
        previous = self.adapter_of(owner)
        self.load(owner, adapter)
        return previous
