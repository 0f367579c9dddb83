"""Pools of KV blocks shared by the scheduler thread and the output thread."""

from __future__ import annotations

import asyncio
import threading


class BlockLedger:
    """`_free_lock` guards the same fields as `_alloc_lock` and is never taken with it (planted)."""

    def __init__(self, blocks: int) -> None:
        self._alloc_lock = threading.Lock()
        self._free_lock = threading.Lock()
        self._free: list[int] = list(range(blocks))
        self._owner: dict[int, str] = {}

    def allocate(self, request_id: str) -> int:
        with self._alloc_lock:
            block = self._free.pop()
            self._owner[block] = request_id
        return block

    def release(self, block: int) -> None:
        with self._free_lock:
            self._free.append(block)
            self._owner.pop(block, None)


class SwapLedger:
    """Trap: `_swap_lock` is always taken inside `_table_lock`; the order is the protocol."""

    def __init__(self) -> None:
        self._table_lock = threading.Lock()
        self._swap_lock = threading.Lock()
        self._swapped: dict[int, int] = {}

    def swap_out(self, block: int, slot: int) -> None:
        with self._table_lock:
            self._swapped[block] = slot
            self._record(block, slot)

    def _record(self, block: int, slot: int) -> None:
        with self._swap_lock:
            self._swapped[block] = slot


class StreamLedger:
    """Trap: an asyncio lock for the serving coroutines beside a threading lock for the engine thread."""

    def __init__(self) -> None:
        self._loop_lock = asyncio.Lock()
        self._thread_lock = threading.Lock()
        self._streams: dict[str, int] = {}

    async def open(self, request_id: str, announce) -> None:
        async with self._loop_lock:
            self._streams[request_id] = 0
            await announce(request_id)

    def close(self, request_id: str) -> None:
        with self._thread_lock:
            self._streams[request_id] = -1


class StepCounters:
    """`_counts_lock` guards sections that never await (planted); `_flush_lock` one that does (trap)."""

    def __init__(self) -> None:
        self._counts_lock = asyncio.Lock()
        self._flush_lock = asyncio.Lock()
        self._counts: dict[str, int] = {}
        self._flushes = 0

    async def bump(self, stage: str) -> None:
        async with self._counts_lock:
            self._counts[stage] = self._counts.get(stage, 0) + 1

    async def flush(self, sink) -> int:
        async with self._flush_lock:
            await sink(dict(self._counts))
            self._flushes += 1
        return self._flushes


# Module-level locks: `_tally_lock` guards only a dict update (planted: it makes no one wait); `_report_lock` a
# section that awaits the sink (trap).
_tally_lock = asyncio.Lock()
_report_lock = asyncio.Lock()
_tallies: dict[str, int] = {}


async def tally(stage: str) -> None:
    async with _tally_lock:
        _tallies[stage] = _tallies.get(stage, 0) + 1


async def report_tallies(sink) -> None:
    async with _report_lock:
        await sink(dict(_tallies))
