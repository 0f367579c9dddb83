"""Each annotated line encodes and decodes a payload again, or encodes it twice, in one process."""

import base64
import json
import pickle
import zlib

import numpy as np
import torch


def round_trips(request: dict, image: bytes, audio: np.ndarray, ids: torch.Tensor):
    copied = pickle.loads(pickle.dumps(request))  # [redundant-payload-conversion]
    normalised = json.loads(json.dumps(request))  # [redundant-payload-conversion]
    same = base64.b64decode(base64.b64encode(image).decode("ascii"))  # [redundant-payload-conversion]
    samples = np.frombuffer(audio.tobytes(), dtype=np.int16)  # [redundant-payload-conversion]
    token_array = np.array(ids.tolist())  # [redundant-payload-conversion]
    host = np.array(ids.cpu().numpy())  # [redundant-payload-conversion]
    text = image.decode("utf-8").encode("utf-8")  # [redundant-payload-conversion]
    return copied, normalised, same, samples, token_array, host, text


def through_a_local(chunk: bytes) -> bytes:
    packed = zlib.compress(chunk)
    print("compressed size", len(packed))
    return zlib.decompress(packed)  # [redundant-payload-conversion]


def serialized_twice(output, sock) -> None:
    if len(pickle.dumps(output)) > 1 << 20:
        print("large output")
    sock.send(pickle.dumps(output))  # [redundant-payload-conversion]
