"""A run folder's files: ``episodes.jsonl`` (append-only, flushed, resumable), the logs and
the folder's lock.

Every finished episode becomes one JSON line, appended, flushed and fsync'ed before the
next one, after its log (``logs/<episode_id>.json``) has been written atomically. On resume
the lines are read back: a trailing line that is not a complete JSON object (a run killed
mid-write) is cut off and its episode redone; a corrupt line elsewhere is an error naming
it (nothing is dropped silently); a repeated episode keeps its first line.

``RunFolder.lock`` holds ``run.lock`` with an exclusive ``flock`` while a run writes the
folder; the kernel releases it when the process ends, however it ends, so a lock is never
stale. The file names its holder (pid, host, start time, command) for the message that
refuses a second run.
"""

from __future__ import annotations

import json
import os
import re
import socket
import sys
import time
from pathlib import Path
from typing import IO, Any

from contracts.errors import NesyError

EPISODES_FILE = "episodes.jsonl"
LOGS_DIR = "logs"
RUN_FILE = "run.json"
SUMMARY_FILE = "summary.json"
CONFIG_FILE = "config.yaml"
LOCK_FILE = "run.lock"
REQUIRED = ("episode_id", "task_type", "success", "goal_conditions_satisfied", "goal_conditions_total",
            "steps", "failed_actions", "end_reason", "metrics")


class ResultsError(NesyError):
    """A results folder that cannot be resumed as it is."""


def read_json_object(path: Path, advice: str) -> dict[str, Any]:
    """A run file that must hold a JSON object; a clear error (ending in ``advice``) if not."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ResultsError(f"cannot read {path}: {exc.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ResultsError(f"{path} is corrupt (not JSON: {exc}); {advice}") from None
    if not isinstance(data, dict):
        raise ResultsError(f"{path} is corrupt (expected a JSON object, got {type(data).__name__}); {advice}")
    return data


def log_name(episode_id: str) -> str:
    """A file name for an episode id (``:`` and other unsafe characters become ``_``)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", episode_id) + ".json"


def _valid(row: Any) -> bool:
    return isinstance(row, dict) and all(k in row for k in REQUIRED)


def read_rows(path: Path, repair: bool = True) -> list[dict[str, Any]]:
    """The episode lines of ``path`` (none if it does not exist); cuts a corrupt trailing
    line off the file when ``repair`` is set."""
    if not path.is_file():
        return []
    data = path.read_bytes()
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    offset = 0
    lines = data.split(b"\n")
    for number, line in enumerate(lines, 1):
        is_last = number == len(lines)
        end = offset + len(line) + (0 if is_last else 1)
        if line.strip():
            complete = not is_last  # a line without its newline was cut mid-write
            try:
                row = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError):
                row = None
            trailing = all(not rest.strip() for rest in lines[number:])
            if row is None or not _valid(row) or not complete:
                if not trailing:
                    raise ResultsError(
                        f"{path}: line {number} is not a valid episode result; delete that line "
                        "(its episode will be rerun) and run the same command again"
                    )
                if repair:
                    print(f"{path}: line {number} is incomplete (an interrupted write); "
                          "its episode will be redone", file=sys.stderr)
                    with open(path, "r+b") as handle:
                        handle.truncate(offset)
                break
            if row["episode_id"] not in seen:
                seen.add(row["episode_id"])
                rows.append(row)
        offset = end
    return rows


class RunFolder:
    """The files of one evaluation run (``--out DIR``)."""

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)
        self.episodes_path = self.dir / EPISODES_FILE
        self.logs_dir = self.dir / LOGS_DIR
        self._handle = None
        self._lock: IO[str] | None = None

    def lock(self, command: str) -> None:
        """Hold the folder for this process until ``unlock`` (or its end); a folder another
        process holds is refused, naming it."""
        import fcntl

        try:
            handle = open(self.dir / LOCK_FILE, "a+", encoding="utf-8")
        except OSError as exc:
            raise ResultsError(f"cannot lock {self.dir / LOCK_FILE}: {exc.strerror}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = " ".join(handle.read().split()) or "another process"
            handle.close()
            raise ResultsError(
                f"{self.dir} is in use by {holder}; wait for that run to end (or stop it), or use "
                "another --out"
            ) from None
        handle.seek(0)
        handle.truncate()
        started = time.strftime("%Y-%m-%d %H:%M:%S")
        handle.write(f"pid {os.getpid()} on {socket.gethostname()} since {started}: {command}\n")
        handle.flush()
        self._lock = handle

    def unlock(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the file releases the flock
            self._lock = None

    def read(self) -> list[dict[str, Any]]:
        return read_rows(self.episodes_path)

    def open(self) -> None:
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            self.logs_dir.mkdir(exist_ok=True)
            self._handle = open(self.episodes_path, "a", encoding="utf-8")
        except OSError as exc:
            raise ResultsError(f"cannot write the run's files in {self.dir}: {exc.strerror} "
                               f"({exc.filename})") from None

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def log_path(self, episode_id: str) -> Path:
        return self.logs_dir / log_name(episode_id)

    def write_log(self, episode_id: str, log: dict[str, Any]) -> Path:
        target = self.log_path(episode_id)
        tmp = target.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(log, separators=(",", ":")))
        os.replace(tmp, target)
        return target

    def append(self, row: dict[str, Any]) -> None:
        """One line, flushed and synced: after this returns the episode is not lost."""
        assert self._handle is not None, "RunFolder.open() first"
        self._handle.write(json.dumps(row, separators=(",", ":")) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())
