"""Spilling the pages of paused requests to host memory."""


class SpillPool:
    def __init__(self) -> None:
        self.pages = {}

    def reserve(self, count: int) -> list:
        return list(range(count))

    def move_page(self, page: int, to: str) -> None:  # medium: only the two test-only methods below call it
        self.pages[page] = to


class SpillManager:
    def __init__(self) -> None:
        self.pool = SpillPool()

    def reserve(self, count: int) -> list:
        return self.pool.reserve(count)

    def spill_out(self, pages: list) -> None:  # [test-only-surface] the root of the test-only spill path
        for page in pages:
            self.pool.move_page(page, "host")

    def spill_in(self, pages: list) -> None:  # [test-only-surface] the other root
        for page in pages:
            self.pool.move_page(page, "device")
