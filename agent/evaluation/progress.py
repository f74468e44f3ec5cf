"""How far a ``nesy eval`` run is: tqdm's bar on a terminal; anywhere else (a log file or a
pipe, where a long run started with ``nohup`` writes) one plain line per finished episode
with its outcome, the session's success count, its pace and an estimate of the time left,
so the log of a run in the background says how far it is (tqdm alone prints nothing there)."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

from tqdm import tqdm


class EvalProgress:
    """Progress of ``total`` episodes, ``already`` of them finished before this session."""

    def __init__(self, label: str, total: int, already: int, enabled: bool = True,
                 stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        terminal = bool(getattr(self.stream, "isatty", lambda: False)())
        self.label, self.total, self.done = label, total, already
        self.lines = enabled and not terminal
        self.bar = tqdm(total=total, initial=already, desc=label, unit="ep", file=self.stream,
                        disable=not (enabled and terminal), dynamic_ncols=True)
        self.ran = self.successes = 0
        self.started = time.perf_counter()

    def update(self, row: dict[str, Any]) -> None:
        """One more episode finished (its ``episodes.jsonl`` row)."""
        self.done += 1
        self.ran += 1
        self.successes += bool(row.get("success"))
        self.bar.update(1)
        self.bar.set_postfix_str(f"success {self.successes}/{self.ran} this session", refresh=False)
        if self.lines:
            print(self.line(row, time.perf_counter() - self.started), file=self.stream, flush=True)

    def line(self, row: dict[str, Any], elapsed: float) -> str:
        outcome = "success" if row.get("success") else f"failed ({row.get('end_reason', 'unknown')})"
        per_hour = 3600.0 * self.ran / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / per_hour if per_hour > 0 else 0.0
        return (f"{self.label} {self.done}/{self.total} {row.get('episode_id')} ({row.get('task_type', '?')}): "
                f"{outcome}, {row.get('steps', '?')} steps | this session {self.successes}/{self.ran} succeeded, "
                f"{per_hour:.0f} episodes/h, about {_duration(left)} left")

    def close(self) -> None:
        self.bar.close()


def _duration(hours: float) -> str:
    minutes = round(hours * 60)
    return f"{minutes} min" if minutes < 90 else f"{minutes / 60:.1f} h"
