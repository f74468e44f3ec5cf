"""A guard process: if ``nesy eval`` dies without cleaning up (SIGKILL), it kills what the
run had started.

``Guard.start()`` runs this file (``python -I guard.py PID``) in a session of its own with
a pipe on its stdin. Every ``POLL`` seconds the guard records the descendants of PID (pid
and start time, read from ``/proc``). When the pipe closes without the word ``done``
first, PID has died: the guard kills every recorded process that still runs (the start
time tells a process from a later one that reuses its pid), and their children, then
exits. ``Guard.stop()`` (a clean exit) writes ``done``. The harness guards ``--ray local``:
Ray's dashboard and runtime-env agents outlive a killed driver by a minute or more (they
wait on the dead GCS) and ignore SIGTERM. Where there is no ``/proc`` the guard is not
started (process-pool workers watch their parent themselves: ``workers.watch_parent``).
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

POLL = 0.5  # seconds between two looks at the process tree
PROC = Path("/proc")


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, or None if it is gone."""
    try:
        fields = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), fields[0], int(fields[19])


def descendants(roots: set[int]) -> dict[int, int]:
    """Every running descendant of ``roots``: pid -> start time."""
    children: dict[int, list[tuple[int, int]]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (info := _stat(int(entry.name))) is not None and info[1] != "Z":
            children.setdefault(info[0], []).append((int(entry.name), info[2]))
    found: dict[int, int] = {}
    todo = list(roots)
    while todo:
        for pid, started in children.get(todo.pop(), []):
            if pid not in found:
                found[pid] = started
                todo.append(pid)
    return found


def kill_recorded(recorded: dict[int, int]) -> None:
    """SIGKILL the recorded processes that still run, and anything they started since."""
    alive = {pid for pid, started in recorded.items() if (info := _stat(pid)) and info[2] == started}
    targets = {pid: recorded[pid] for pid in alive} | descendants(alive)
    for pid, started in targets.items():
        info = _stat(pid)
        if info is not None and info[2] == started:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def main(argv: list[str]) -> int:
    watched = int(argv[0])
    me = os.getpid()
    stdin = sys.stdin.fileno()
    recorded: dict[int, int] = {}
    while True:
        ready, _, _ = select.select([stdin], [], [], POLL)
        if ready:
            data = os.read(stdin, 64)
            if b"done" in data:
                return 0
            if not data:  # the watched process is gone without saying done
                kill_recorded(recorded)
                return 0
        recorded.update((pid, started) for pid, started in descendants({watched}).items() if pid != me)


class Guard:
    """The guard of this process (``start`` it before starting what it should clean up)."""

    def __init__(self) -> None:
        self._process: subprocess.Popen | None = None

    def start(self) -> Guard:
        if (PROC / "self" / "stat").exists():
            # -I: the standard library only (this file imports nothing of nesy)
            self._process = subprocess.Popen(
                [sys.executable, "-I", __file__, str(os.getpid())], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            )
        return self

    def stop(self) -> None:
        """A clean exit: the guard leaves everything alone and exits."""
        if self._process is None:
            return
        try:
            self._process.stdin.write(b"done")
            self._process.stdin.close()
        except OSError:
            pass
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process = None


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
