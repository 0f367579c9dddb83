"""The talker stage: hidden states in, speech codes out."""


class TalkerStage:
    def run(self, hidden: list[float]) -> list[int]:
        return [int(h) for h in hidden]
