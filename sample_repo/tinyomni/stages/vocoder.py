"""The vocoder stage: speech codes in, waveform out."""


class VocoderStage:
    def run(self, codes: list[int]) -> bytes:
        return bytes(codes)
