"""Audio framing for streamed chunks: a chunk's edges are not the utterance's, so they are padded with zeros."""

import torch
import torch.nn.functional as F


def frame_chunk(chunk, frame, hop):
    pad = frame // 2
    padded = F.pad(chunk, (pad, pad), mode="constant")
    frames = padded.unfold(-1, frame, hop)
    window = torch.hann_window(frame, device=chunk.device)
    frames = frames * window
    count = frames.shape[-2]
    return frames, count
