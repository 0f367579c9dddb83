"""Speech adapters turn raw audio into features (one implementation today)."""

from abc import ABC, abstractmethod


class SpeechAdapter(ABC):
    @abstractmethod
    def adapt(self, waveform: bytes) -> list[float]:
        """Features of one waveform."""


class WhisperFeatureAdapter(SpeechAdapter):
    def adapt(self, waveform: bytes) -> list[float]:
        return [float(b) for b in waveform]


def speech_features(waveform: bytes) -> list[float]:
    return WhisperFeatureAdapter().adapt(waveform)
