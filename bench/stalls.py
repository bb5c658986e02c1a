"""Event-loop stalls: how late the loop runs what it is given, and what it was doing instead.

A watchdog thread hands the loop a callback every ``period`` seconds
(``loop.call_soon_threadsafe``) and measures how long it waits to run: the loop's lag, which every
message on every socket of the process also waits. While the loop is late by more than
``threshold``, the thread samples the loop thread's Python stack (``sys._current_frames``); at
the end :meth:`LoopWatch.report` gives the lag percentiles, the stalls and the stacks seen most
often in them. Garbage collections are timed through ``gc.callbacks`` (a collection holds the
GIL, so the watchdog cannot sample it).

Used by bench/load.py in the server it starts (``--stalls``) and in its own client.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import sys
import threading
import time
import traceback
from typing import Any


class LoopWatch:
    """Measure the lag of an asyncio loop from a thread, and sample its stack in stalls."""

    def __init__(self, period: float = 0.005, threshold: float = 0.02, depth: int = 6) -> None:
        self.period = period
        self.threshold = threshold
        self.depth = depth
        self.lags: list[float] = []
        self.stacks: collections.Counter[str] = collections.Counter()
        self.samples = 0
        self.gc_pauses: list[float] = []
        self._gc_started = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.measuring = True

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Watch ``loop`` (call from the loop's own thread)."""
        ident = threading.get_ident()
        gc.callbacks.append(self._gc)
        self._thread = threading.Thread(target=self._watch, args=(loop, ident), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop watching."""
        self._stop.set()
        if self._gc in gc.callbacks:
            gc.callbacks.remove(self._gc)
        if self._thread is not None:
            self._thread.join(1)

    def reset(self) -> None:
        """Forget what was seen so far (after a warm-up)."""
        self.lags.clear()
        self.stacks.clear()
        self.samples = 0
        self.gc_pauses.clear()

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif info.get("generation", 0) >= 1 and self.measuring:
            self.gc_pauses.append(time.perf_counter() - self._gc_started)

    def _watch(self, loop: asyncio.AbstractEventLoop, ident: int) -> None:
        while not self._stop.wait(self.period):
            ran = threading.Event()
            sent = time.perf_counter()
            try:
                loop.call_soon_threadsafe(ran.set)
            except RuntimeError:  # the loop is closed
                return
            sampled_at = sent
            while not ran.wait(0.002):
                now = time.perf_counter()
                if now - sent > self.threshold and now - sampled_at >= self.period:
                    sampled_at = now
                    frame = sys._current_frames().get(ident)
                    if frame is not None and self.measuring:
                        self.stacks[self._key(frame)] += 1
                        self.samples += 1
                if self._stop.is_set():
                    return
            if self.measuring:
                self.lags.append(time.perf_counter() - sent)

    def _key(self, frame: Any) -> str:
        stack = traceback.extract_stack(frame)[-self.depth :]
        return " <- ".join(
            f"{f.filename.rsplit('/', 2)[-2:][-1]}:{f.lineno} {f.name}" for f in reversed(stack)
        )

    def report(self, top: int = 8) -> dict[str, Any]:
        """Lag percentiles (ms), stalls over the threshold, GC pauses and the commonest stacks."""
        lags = sorted(self.lags)

        def q(p: float) -> float | None:
            return round(1000 * lags[int(p * (len(lags) - 1))], 2) if lags else None

        gcs = sorted(self.gc_pauses)
        return {
            "lag_ms_p50": q(0.5),
            "lag_ms_p99": q(0.99),
            "lag_ms_max": round(1000 * lags[-1], 1) if lags else None,
            "stalls_over_threshold": sum(1 for x in lags if x > self.threshold),
            "threshold_ms": 1000 * self.threshold,
            "gc_gen1_2_pauses": len(gcs),
            "gc_pause_ms_max": round(1000 * gcs[-1], 1) if gcs else None,
            "stall_samples": self.samples,
            "stall_stacks": [[n, k] for k, n in self.stacks.most_common(top)],
        }
