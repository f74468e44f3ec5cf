"""Which episodes a run covers, in a deterministic, task-balanced order.

``tatc``: the shipped episode set of the split (``simulator/episodes/data``) or a file.
``alfred``: one episode per (trajectory, annotation) of an ALFRED trajectories file
(``evaluation.alfred_data`` or ``--data``), those of the split in supported floor plans
(the 13 without recorded receptacles are left out); ``alfred-nav-only``, ``alfred-rev-1``,
``alfred-rev-n``: the same episodes changed into ALFRED-L's variants
(``agent.evaluation.alfred_l``; not those whose task cannot hold where they end). Episodes are ordered
round-robin over task types (sorted by name; within a type in file order), so the first N
of a run cover the task types evenly; ``--task-types`` keeps only the named types.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from contracts.errors import NesyError
from simulator.episodes.model import Episode

SUITES = ("tatc", "alfred", "alfred-nav-only", "alfred-rev-1", "alfred-rev-n")


class SuiteError(NesyError):
    """An unknown suite or split, missing data, or a selection that matches nothing."""


def load_suite(suite: str, split: str, data: str | Path | None = None) -> list[Episode]:
    """All episodes of ``suite``/``split`` in file order."""
    if suite == "tatc":
        from simulator.episodes.model import load_episodes, shipped_path

        path = Path(data) if data else shipped_path(split)
        if not path.is_file():
            shipped = sorted(p.name for p in shipped_path("x").parent.glob("tatc_*.json.gz"))
            raise SuiteError(
                f"no TATC episode set for split {split!r} ({path} does not exist); shipped: "
                f"{', '.join(shipped)} (build one with `nesy episodes build --split {split}`)"
            )
        episodes, _ = load_episodes(path)
        chosen = [e for e in episodes if e.split == split]
        if not chosen:
            found = dict(Counter(e.split for e in episodes))
            raise SuiteError(f"{path}: no episodes of split {split!r} (it holds {found})")
        return chosen
    if suite in SUITES:  # alfred and its ALFRED-L variants
        from agent.evaluation.alfred_l import alfred_l_episodes, solvable
        from simulator.alfred.trajectories import load_trajectories
        from simulator.episodes.alfred import alfred_episodes

        if not data:
            raise SuiteError(
                f"the {suite} suite needs ALFRED trajectories: set evaluation.alfred_data in the "
                "config (e.g. evaluation.alfred_data=../shared/data/alfred_train.jsonl.gz) or "
                "pass --data FILE"
            )
        from simulator.scenes import supported_scenes

        supported = set(supported_scenes())
        trajectories = list(load_trajectories(data))

        def runnable(episode: Episode) -> bool:  # the 13 floor plans without recorded receptacles cannot be run
            return episode.split == split and episode.floor_plan in supported

        if suite == "alfred":
            chosen = [e for e in alfred_episodes(trajectories) if runnable(e)]
        else:  # ALFRED-L: not those no one can succeed on (a look-at ending out of the lamp's sight)
            chosen = solvable(alfred_l_episodes(trajectories, suite, runnable))
        if not chosen:
            found = dict(sorted(Counter(e.split for e in alfred_episodes(trajectories)).items()))
            raise SuiteError(f"{data}: no ALFRED episodes of split {split!r}; splits there: {found}")
        return chosen
    raise SuiteError(f"unknown suite {suite!r}; expected one of: {', '.join(SUITES)}")


def _norm(task_type: str) -> str:
    """``Water Plant``, ``water_plant`` and ``water-plant`` name the same task type."""
    return "".join(ch for ch in task_type.lower() if ch.isalnum())


def balanced_order(episodes: Sequence[Episode]) -> list[Episode]:
    """Round-robin over task types (sorted); each type's episodes in their given order, but
    every ALFRED trial's first annotation before any second one (a sample of a type's first
    N episodes then covers N trials, not N/3 trials thrice)."""
    by_type: dict[str, list[Episode]] = {}
    for episode in sorted(episodes, key=lambda e: e.annotation):
        by_type.setdefault(episode.task_type, []).append(episode)
    queues = [by_type[t] for t in sorted(by_type)]
    ordered: list[Episode] = []
    for i in range(max((len(q) for q in queues), default=0)):
        ordered.extend(q[i] for q in queues if i < len(q))
    return ordered


def select(
    episodes: Sequence[Episode], limit: int | None = None, task_types: Sequence[str] | None = None,
    per_task: int | None = None,
) -> list[Episode]:
    """The run's episodes: filtered by task type, balanced order, then the first ``limit``
    (and at most ``per_task`` of each type)."""
    pool = list(episodes)
    if task_types:
        known = {_norm(t): t for t in {e.task_type for e in pool}}
        unknown = [t for t in task_types if _norm(t) not in known]
        if unknown:
            raise SuiteError(f"unknown task type(s) {unknown}; this split has: {', '.join(sorted(known.values()))}")
        wanted = {known[_norm(t)] for t in task_types}
        pool = [e for e in pool if e.task_type in wanted]
    ordered = balanced_order(pool)
    if per_task is not None:
        seen: Counter = Counter()
        kept = []
        for episode in ordered:
            if seen[episode.task_type] < per_task:
                seen[episode.task_type] += 1
                kept.append(episode)
        ordered = kept
    if limit is not None:
        if limit < 1:
            raise SuiteError(f"--episodes must be at least 1, got {limit}")
        ordered = ordered[:limit]
    ids = [e.episode_id for e in ordered]
    duplicates = [i for i, n in Counter(ids).items() if n > 1]
    if duplicates:
        raise SuiteError(f"duplicate episode ids in the episode set: {duplicates[:5]}")
    return ordered
