"""Audio framing for the vocoder stage: reflect padding keeps the edges of a whole utterance."""

import torch
import torch.nn.functional as F


def frame_audio(wave, frame, hop):
    pad = frame // 2
    padded = F.pad(wave, (pad, pad), mode="reflect")
    frames = padded.unfold(-1, frame, hop)
    window = torch.hann_window(frame, device=wave.device)
    frames = frames * window
    count = frames.shape[-2]
    return frames, count
