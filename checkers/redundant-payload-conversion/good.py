"""Encodings that look redundant but are needed: none is reported."""

import base64
import json
import pickle

import numpy as np
import torch
import torch.distributed as dist


def object_transport(obj, group) -> object:
    payload = torch.frombuffer(pickle.dumps(obj), dtype=torch.uint8)
    dist.broadcast(payload, src=0, group=group)
    return pickle.loads(payload.numpy().tobytes())


def sent_and_kept(obj, sock):
    data = pickle.dumps(obj)
    sock.send(data)
    return pickle.loads(data)


def sanitised(record: dict) -> dict:
    return json.loads(json.dumps(record, default=str))


def codec_repair(text: str) -> str:
    return text.encode("latin-1").decode("utf-8")


def cleaned(raw: bytes) -> bytes:
    return raw.decode("utf-8", "ignore").encode("utf-8")


def changed_between(items: list):
    before = pickle.dumps(items)
    items.append(1)
    after = pickle.dumps(items)
    return before, after


def one_encoding_each_branch(payload: dict, compact: bool) -> str:
    if compact:
        return json.dumps(payload)
    return json.dumps(payload, indent=2)


def numpy_boundary(t: torch.Tensor) -> np.ndarray:
    return np.array(t.numpy())  # `.numpy()` shares the tensor's memory: np.array is the one copy


def documented(image: bytes) -> bytes:
    # Validate the base64 alphabet the client sent before caching it.
    return base64.b64decode(base64.b64encode(image))


def different_payloads(a: dict, b: dict):
    return json.dumps(a), json.dumps(b)
