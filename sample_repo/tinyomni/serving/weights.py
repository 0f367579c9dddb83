"""Swapping packed weights in and out of a replica."""


class WeightSwapper:
    def __init__(self) -> None:
        self.packed = {}

    def swap_in(self, layer: str) -> str:
        """Load the packed weights of `layer`.

        Trainers that reload weights between steps call unpack_for_reload() first.
        """
        self.packed[layer] = True
        return layer

    def unpack_for_reload(self, layer: str) -> str:  # trap: production prose names it (medium)
        self.packed.pop(layer, None)
        return layer

    def release_to_trainer(self, layer: str) -> str:  # trap: its docstring names an outside caller (medium)
        """Must be called by the RL trainer before it writes new weights."""
        return layer

    def packed_layers(self) -> list:  # [test-only-surface] only tests/test_weights.py calls it
        return sorted(self.packed)
