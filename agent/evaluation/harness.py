"""``nesy eval``: run a selection of episodes (serially, in processes or on Ray), resumably.

A run folder (``--out DIR``) holds ``config.yaml`` (the effective config), ``run.json``
(suite, split, data: what the folder is a run of; and how many episodes are selected),
``episodes.jsonl`` (one line per finished episode, in completion order),
``logs/<episode_id>.json``, ``run.lock`` and, once every selected episode is done,
``summary.json`` (``"complete": true``). Running the same command again resumes: the
episodes already in ``episodes.jsonl`` are skipped. A folder that holds a run of another
config, suite or split is refused rather than mixed, and so is a folder that another
``nesy eval`` is writing (the lock names it). A session with episodes to run removes the
folder's ``summary.json`` first: it no longer summarises the folder.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.config import to_yaml
from agent.evaluation import pool
from agent.evaluation.progress import EvalProgress
from agent.evaluation.results import (
    CONFIG_FILE,
    EPISODES_FILE,
    LOGS_DIR,
    RUN_FILE,
    SUMMARY_FILE,
    RunFolder,
    read_json_object,
)
from agent.evaluation.suites import load_suite, select
from agent.evaluation.summary import summarize
from agent.evaluation.workers import suite_oracles
from contracts.errors import NesyError
from simulator.episodes.model import Episode

IDENTITY = ("suite", "split", "data")  # what run.json says the folder is a run of


class EvalError(NesyError):
    """A run that cannot start: a folder of another run, a missing extra, bad options."""


@dataclass
class EvalRequest:
    config: str
    suite: str
    split: str
    out: str | Path
    overrides: Sequence[str] = ()
    episodes: int | None = None
    task_types: Sequence[str] | None = None
    per_task: int | None = None
    workers: int = 1
    ray: str | None = None
    data: str | None = None
    fresh: bool = False  # start over: drop the folder's previous results
    progress: bool = True
    on_episode: Callable[[dict[str, Any]], None] | None = field(default=None, repr=False)


@dataclass
class EvalRun:
    summary: dict[str, Any]
    folder: Path
    ran: int  # episodes run in this session
    resumed: int  # episodes found done in the folder
    complete: bool


def config_label(config: str, overrides: Sequence[str]) -> str:
    return " ".join([str(config), *overrides])


def run_evaluation(request: EvalRequest) -> EvalRun:
    """Run (or resume) an evaluation; returns its summary (also in DIR/summary.json)."""
    from agent.settings import load_config

    for option, value in (("--workers", request.workers), ("--episodes", request.episodes),
                          ("--per-task", request.per_task)):
        if value is not None and value < 1:
            raise EvalError(f"{option} must be at least 1, got {value}")
    loaded = load_config(request.config, list(request.overrides))
    check_modules(loaded)
    config_text = to_yaml(loaded.config)
    data = request.data or (loaded.config.evaluation.alfred_data if request.suite != "tatc" else None)
    if data and request.suite == "tatc" and Path(data).is_dir():
        raise EvalError(f"--data {data} is a folder; the tatc suite reads one episode file "
                        "(.json or .json.gz, e.g. from `nesy episodes build --out FILE`)")
    selection = select(load_suite(request.suite, request.split, data), request.episodes,
                       request.task_types, request.per_task)
    if not selection:
        raise EvalError("the selection is empty: no episode to run")
    folder = RunFolder(_run_dir(request.out))
    folder.lock(f"nesy eval {config_label(request.config, request.overrides)} --suite {request.suite} "
                f"--split {request.split}")
    try:
        return _run_locked(request, loaded, folder, config_text, data, selection)
    finally:
        folder.unlock()


def _run_dir(out: str | Path) -> Path:
    directory = Path(out)
    if directory.exists() and not directory.is_dir():
        raise EvalError(f"--out {directory} is a file, not a folder; give a folder for the run's files")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise EvalError(f"--out {directory}: cannot create the folder ({exc.strerror})") from None
    return directory


def _run_locked(request: EvalRequest, loaded: Any, folder: RunFolder, config_text: str, data: Any,
                selection: list[Episode]) -> EvalRun:
    from agent.pairing import oracles_in_use

    if request.fresh:
        _clear(folder.dir)
    identity = {"suite": request.suite, "split": request.split, "data": str(data) if data else None}
    rows = _check_folder(folder, config_text, identity, selection)
    (folder.dir / CONFIG_FILE).write_text(config_text)
    run_info = {**identity, "episodes_selected": len(selection)}
    (folder.dir / RUN_FILE).write_text(json.dumps(run_info, indent=1) + "\n")
    done = {r["episode_id"] for r in rows}
    todo = [e for e in selection if e.episode_id not in done]
    if todo:  # the folder's summary (of fewer episodes) no longer stands for it
        (folder.dir / SUMMARY_FILE).unlink(missing_ok=True)
    session = 1 + max((int((r.get("timing") or {}).get("session", 0)) for r in rows), default=0)
    ran = _execute(request, folder, config_text, todo, session, len(selection), len(done))
    rows = folder.read()
    by_id = {r["episode_id"]: r for r in rows}
    ordered = [by_id[e.episode_id] for e in selection if e.episode_id in by_id]
    summary = summarize(ordered, config_label(request.config, request.overrides), request.suite,
                        request.split, suite_oracles(oracles_in_use(loaded), request.suite),
                        selected=len(selection))
    if summary["complete"]:
        (folder.dir / SUMMARY_FILE).write_text(json.dumps(summary, indent=1) + "\n")
    return EvalRun(summary, folder.dir, ran, len(done), summary["complete"])


def check_modules(loaded: Any) -> None:
    """Every configured module is registered and its params validate (before any worker
    starts, so a misspelt name fails here with one clear message, not inside a worker)."""
    import dataclasses

    from agent.settings import module_params

    config = loaded.config
    specs = [("follower", "follower", config.follower), ("commander", "commander", config.commander)]
    specs += [(f.name, f"modules.{f.name}", getattr(config.modules, f.name)) for f in dataclasses.fields(config.modules)]
    for family, where, spec in specs:
        if spec is not None:
            module_params(family, spec, loaded.raw, where)


def _clear(directory: Path) -> None:
    for name in (EPISODES_FILE, SUMMARY_FILE, RUN_FILE, CONFIG_FILE):
        (directory / name).unlink(missing_ok=True)
    shutil.rmtree(directory / LOGS_DIR, ignore_errors=True)


def _check_folder(folder: RunFolder, config_text: str, identity: dict, selection: list[Episode]) -> list[dict]:
    """The folder's finished episodes, if it is a run of this same config and selection."""
    rows = folder.read()
    if not rows:
        return rows
    where = folder.dir
    saved_config = where / CONFIG_FILE
    if saved_config.is_file() and saved_config.read_text(errors="replace") != config_text:
        raise EvalError(
            f"{where} holds a run of another effective config ({saved_config} differs); "
            "use another --out, or --fresh to start this folder over"
        )
    run_file = where / RUN_FILE
    if run_file.is_file():
        saved = read_json_object(run_file, "restore it, or start the folder over with --fresh")
        saved = {k: saved.get(k) for k in IDENTITY}
        if saved != identity:
            raise EvalError(f"{where} holds a run of {saved}, not {identity}; use another --out, or --fresh")
    wanted = {e.episode_id for e in selection}
    foreign = [r["episode_id"] for r in rows if r["episode_id"] not in wanted]
    if foreign:
        raise EvalError(
            f"{where} holds results of {len(foreign)} episode(s) outside this selection (e.g. "
            f"{foreign[0]}); resume with the same --episodes/--task-types, or use another --out"
        )
    return rows


def _execute(request: EvalRequest, folder: RunFolder, config_text: str, todo: list[Episode],
             session: int, total: int, already: int) -> int:
    if not todo:
        return 0
    started = time.perf_counter()
    progress = EvalProgress(f"eval {request.suite}/{request.split}", total, already, request.progress)
    ran = 0
    folder.open()
    restore = _signals_as_interrupt()
    outcomes = pool.outcomes(todo, config_text, request.suite, request.workers, request.ray)
    try:
        with contextlib.closing(outcomes):  # the workers stop however this loop ends
            for row, log in outcomes:
                row["timing"] = {"session": session, "elapsed": round(time.perf_counter() - started, 3)}
                log["result"] = {**log.get("result", {}), "seed": row["seed"]}
                folder.write_log(row["episode_id"], log)
                folder.append(row)
                ran += 1
                progress.update(row)
                if request.on_episode is not None:
                    request.on_episode(row)
    finally:
        restore()
        folder.close()
        progress.close()
    return ran


def _signals_as_interrupt() -> Callable[[], None]:
    """Let SIGTERM and SIGHUP (a closed terminal) stop a run like Ctrl-C: the workers shut
    down and the finished lines are kept."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum, frame):  # noqa: ARG001
        raise KeyboardInterrupt

    names = [name for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    previous = {name: signal.signal(getattr(signal, name), handler) for name in names}
    return lambda: [signal.signal(getattr(signal, name), old) for name, old in previous.items()]


BASELINE_CONFIG = "teach-baseline"


def load_paired_config(config: str, overrides: Sequence[str] = (), need_follower: bool = True,
                       need_commander: bool = True) -> tuple[Any, str | None]:
    """The config, or, if it names no Follower (or Commander) where one is needed, the same
    config on top of configs/teach-baseline.yaml's pairing; with a note saying so."""
    from agent.settings import load_config

    loaded = load_config(config, list(overrides))
    missing = [role for role, needed, spec in (("follower", need_follower, loaded.config.follower),
                                               ("commander", need_commander, loaded.config.commander))
               if needed and spec is None]
    if not missing:
        return loaded, None
    baseline = load_config(BASELINE_CONFIG)
    pairing = []
    for role in missing:
        spec = getattr(baseline.config, role)
        pairing += [f"{role}.name={spec.name}"]
    loaded = load_config(config, [*pairing, *overrides])
    note = (f"config {config!r} names no {' and no '.join(missing)}; using configs/"
            f"{BASELINE_CONFIG}.yaml's pairing ({', '.join(pairing)})")
    return loaded, note
