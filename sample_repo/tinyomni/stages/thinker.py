"""The thinker stage: text in, hidden states out."""


class ThinkerStage:
    def run(self, prompt: str) -> list[float]:
        return [float(len(prompt))]
