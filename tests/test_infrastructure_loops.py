"""replaceable-infrastructure: small helpers written out as loops and branches (`any`/`all`, a `Counter`,
`fnmatch.filter`, an `Event.wait`, a dataclass's dict written key by key), each with the traps that look like it,
through real pylint runs on small projects."""

from __future__ import annotations

from pathlib import Path

from test_infrastructure_shapes import found_in


def test_any_and_all_loops_and_loops_doing_more(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        def has_fp16(outputs):
            for output in outputs:
                if output.datatype == "FP16":
                    return True
            return False


        def all_ready(workers):
            for worker in workers:
                if not worker.ready:
                    return False
            return True


        def configured(options):
            is_exist = False
            for key, _ in options:
                if key == "grpc.service_config":
                    is_exist = True
                    break
            return is_exist


        def logged(outputs, log):
            for output in outputs:
                log.info(output)
                if output.datatype == "FP16":
                    return True
            return False


        def first(outputs):
            for output in outputs:
                if output.datatype == "FP16":
                    return output
            return None


        async def awaited(outputs):
            for output in outputs:
                if await output.ready():
                    return True
            return False
    """)
    assert set(found) == {2, 9, 17}, found
    assert "`return any(output.datatype == 'FP16' for output in outputs)`" in found[2][1] and "lines 2-5" in found[2][1]
    assert "`return all(worker.ready for worker in workers)`" in found[9][1]
    assert "`is_exist = any(key == 'grpc.service_config' for key, _ in options)`" in found[17][1] and "lines 16-20" in found[17][1]
    assert found[2][0] == "INFERENCE"  # an idiom: a few lines wherever it is, however often


def test_a_counter_filled_by_hand(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        class Stats:
            def __init__(self):
                self.finished = {}
                self.seen = {}
                self.first = {}

            def finish(self, url):
                if url not in self.finished:
                    self.finished[url] = 0
                self.finished[url] += 1

            def see(self, url):
                if url not in self.seen:
                    self.seen[url] = 0
                self.seen[url] += 2

            def start(self, url, now):
                if url not in self.first:
                    self.first[url] = now
                self.first[url] += 1

            def other(self, url):
                if url not in self.seen:
                    self.seen[url] = 0
                self.finished[url] += 1
    """)
    assert set(found) == {8, 13}, found
    assert "collections.Counter" in found[8][1] and "lines 8-9" in found[8][1]
    assert found[8][0] == "INFERENCE"  # an idiom, even written twice in the module


def test_fnmatch_filter_and_a_sleep_cut_into_ticks(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        import fnmatch
        import time


        def matching(paths, pattern):
            return sorted([p for p in paths if fnmatch.fnmatch(p, pattern)])


        def renamed(paths, pattern):
            return [p.upper() for p in paths if fnmatch.fnmatch(p, pattern)]


        class Watcher:
            def __init__(self):
                self.running = True

            def _sleep_or_break(self, interval):
                for _ in range(int(interval)):
                    if not self.running:
                        break
                    time.sleep(1)

            def _busy(self, interval, work):
                for _ in range(int(interval)):
                    if not self.running:
                        break
                    work()
    """)
    assert set(found) == {6, 18}, found
    assert "`fnmatch.filter(paths, pattern)`" in found[6][1] and found[6][0] == "INFERENCE"
    assert "threading.Event.wait" in found[18][1] and "`self.running` becomes an Event" in found[18][1]
    assert found[18][0] == "INFERENCE"


def test_a_dataclass_dict_written_key_by_key(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        from dataclasses import dataclass
        from enum import Enum


        class Status(Enum):
            DONE = "done"


        @dataclass
        class FileInfo:
            id: str
            size: int
            name: str
            status: Status

            def to_dict(self):
                return {
                    "id": self.id,
                    "size": self.size,
                    "name": self.name,
                    "status": self.status.value,
                }

            def summary(self):
                return {"id": self.id, "size": self.size}


        @dataclass
        class Plain:
            id: str
            size: int
            name: str
            owner: str

            def to_dict(self):
                return {
                    "id": self.id,
                    "size": self.size,
                    "name": self.name,
                    "owner": self.owner,
                }


        class NotADataclass:
            id: str
            size: int

            def to_dict(self):
                return {"id": self.id, "size": self.size}
    """)
    assert set(found) == {17, 36}, found
    assert '`{**dataclasses.asdict(self), "status": ...}`' in found[17][1] and found[17][0] == "INFERENCE"
    assert "the fields it converts (status) stay as overrides" in found[17][1]
    assert found[36][0] == "HIGH" and "`dataclasses.asdict(self)`" in found[36][1]
