"""A worker script whose surfaces are all reached: by calls, by name, by frameworks."""

import importlib
import threading
from abc import ABC, abstractmethod


class Probe(ABC):
    @abstractmethod
    def check(self):
        ...


class DiskProbe(Probe):
    def check(self):
        return True


class Worker:
    def __init__(self):
        self.queue = []
        self._stopped = threading.Event()

    def __len__(self):
        return len(self.queue)

    @property
    def busy(self):
        return bool(self.queue)

    def handle(self, kind):
        return getattr(self, f"_on_{kind}")()

    def _on_start(self):
        return "started"

    def stop(self):
        self._stopped.set()

    def wait(self):
        self._stopped.wait(1.0)


def plugin_main():
    """Loaded by name (the qualname below)."""
    return "plugin"


LOADER = "good:plugin_main"


if __name__ == "__main__":
    worker = Worker()
    print(len(worker), worker.busy, worker.handle("start"), DiskProbe().check())
    worker.stop()
    worker.wait()
    module, _, name = LOADER.partition(":")
    getattr(importlib.import_module(module), name)()
