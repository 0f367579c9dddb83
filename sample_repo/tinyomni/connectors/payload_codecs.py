"""Payload codecs of a connector (planted: a single-choice factory whose kind the callers' code cannot show)."""

from __future__ import annotations

import pickle
from typing import Any


class PickleCodec:
    def encode(self, payload: Any) -> bytes:
        return pickle.dumps(payload)


def make_codec(name: str) -> PickleCodec:
    if name != "pickle":
        raise ValueError(f"unknown codec {name!r}")
    return PickleCodec()


def channel_codec(settings: Any) -> PickleCodec:
    return make_codec(settings.codec_name)
