"""The vocoder stage: waveforms from speech tokens."""
