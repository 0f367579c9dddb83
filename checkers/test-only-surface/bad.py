"""Helpers of a serving package."""


def queue_snapshot(queue):  # [test-only-surface]
    return list(queue)


class ReplayClient:  # [test-only-surface]
    def __init__(self, url):
        self.url = url


def serve(queue):
    return len(queue)


if __name__ == "__main__":
    print(serve([1, 2]))
