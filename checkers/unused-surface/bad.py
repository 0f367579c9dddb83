"""A worker script (run directly, so its module-level code is the root)."""  # [unused-surface] its dead definitions: one change

import threading


class QueueFullError(Exception):  # in the module's one change
    """Never raised, never caught."""


class LegacyScheduler:  # likewise
    def pick(self, queue):
        return queue[0]


class Worker:
    def __init__(self):
        self.queue = []
        self._stopped = threading.Event()  # [unused-surface]

    def submit(self, item):
        self.queue.append(item)

    def stop(self):
        self._stopped.set()

    def flush_all(self):  # in the module's one change too (with _pop_oldest, which only it calls)
        return [self._pop_oldest() for _ in list(self.queue)]

    def _pop_oldest(self):
        return self.queue.pop(0)

    def size(self):  # [unused-surface]
        return 0

    def size(self):
        return len(self.queue)


def _retry_a(n):  # likewise (a dead cycle with _retry_b)
    return _retry_b(n - 1) if n else 0


def _retry_b(n):
    return _retry_a(n - 1) if n else 1


if __name__ == "__main__":
    worker = Worker()
    worker.submit("job")
    print(worker.size())
    worker.stop()
