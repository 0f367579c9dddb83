"""Encodes stage outputs for the connectors and decodes them on the other side."""

from __future__ import annotations

import base64
import json
import pickle
import zlib

import numpy as np
import torch
import torch.distributed as dist

MAX_INLINE_BYTES = 1 << 20


def encode_output(sock, output) -> None:
    """Candidate: the same payload pickled twice."""
    if len(pickle.dumps(output)) > MAX_INLINE_BYTES:
        print("large output")
    sock.send(pickle.dumps(output))


def image_payload(image: bytes) -> bytes:
    """Candidate: base64 encoded, then decoded straight back."""
    return base64.b64decode(base64.b64encode(image).decode("ascii"))


def audio_samples(audio: np.ndarray) -> np.ndarray:
    """Candidate: a full bytes copy only to reinterpret it."""
    return np.frombuffer(audio.tobytes(), dtype=np.int16)


def token_array(ids: torch.Tensor) -> np.ndarray:
    """Candidate: array → Python list → array."""
    return np.array(ids.tolist())


def request_snapshot(request: dict) -> dict:
    """Candidate (medium): a pickle round trip, maybe a deliberate deep copy."""
    return pickle.loads(pickle.dumps(request))


def stored_chunk(chunk: bytes) -> bytes:
    """Candidate: compressed, measured, decompressed."""
    packed = zlib.compress(chunk)
    print("compressed to", len(packed))
    return zlib.decompress(packed)


def broadcast_object(obj, group) -> object:
    """Trap: one-way packing for torch.distributed object transport."""
    payload = torch.frombuffer(pickle.dumps(obj), dtype=torch.uint8)
    dist.broadcast(payload, src=0, group=group)
    return pickle.loads(payload.numpy().tobytes())


def send_and_keep(sock, obj):
    """Trap: the bytes are also sent, not only decoded."""
    data = pickle.dumps(obj)
    sock.send(data)
    return pickle.loads(data)


def json_safe(record: dict) -> dict:
    """Trap: `default=str` sanitises, it is not a round trip."""
    return json.loads(json.dumps(record, default=str))


def clean_text(raw: bytes) -> bytes:
    """Trap: the error handler drops invalid bytes."""
    return raw.decode("utf-8", "ignore").encode("utf-8")


def versions(items: list) -> tuple[bytes, bytes]:
    """Trap: the payload changes between the two encodings."""
    before = pickle.dumps(items)
    items.append(len(items))
    return before, pickle.dumps(items)


def validated_image(image: bytes) -> bytes:
    # Validate the base64 alphabet before the cache stores it.
    return base64.b64decode(base64.b64encode(image))
