"""Copies inside one module: exact, an override of the inherited body, drifted, log-only, a pasted block."""

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
