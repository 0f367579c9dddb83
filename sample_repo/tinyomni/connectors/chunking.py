"""Splitting a payload into fixed-size chunks for transfer."""

from __future__ import annotations


def split_into_chunks(payload: bytes, chunk_bytes: int) -> list[bytes]:
    if chunk_bytes <= 0:
        raise ValueError("chunk_bytes must be positive")
    chunks = []
    offset = 0
    while offset < len(payload):
        chunks.append(payload[offset:offset + chunk_bytes])
        offset += chunk_bytes
    return chunks
