"""Where a run's Follower actions went, read from its episode logs (the "Where the steps go"
section of ``nesy report``, ``agent.evaluation.report``).

Per run, over the episodes of ``episodes.jsonl`` whose ``logs/<episode>.json`` exists: the
Follower's actions (moves, turns, looks and interactions; not its questions); the share taken
searching (``metrics.search_steps``, counted by the modular Follower: a plan step looking for
what its map does not hold); turns undone by the very next action (a Turn Left right after a
Turn Right, or the other way); the episodes that ended at the step limit; and the failed
interactions by action and error, with object ids and numbers left out ("Place: No object
that can be acted on (receptacle) at"), the most common first. In stop 72 it showed that 37%
of the default Follower's TATC valid_unseen actions were search steps and 6% turns undone by
the next action (mostly at goal poses that did not show the target, the next one tried a step
aside), and that clicks chosen by depth took puts that found no receptacle from 8 to 21 on the
same 13 episodes.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.evaluation.results import LOGS_DIR, log_name

FOLLOWER = 1
SPOKEN = ("Text", "Stop")  # not actions in the world
MOVES = ("Forward", "Backward", "Pan Left", "Pan Right", "Turn Left", "Turn Right", "Look Up", "Look Down")
TURNS = {"Turn Left", "Turn Right"}


@dataclass
class Census:
    episodes: int = 0  # episodes with a log
    actions: int = 0
    search_steps: int | None = 0  # None: some episode's Follower does not count them
    undone_turns: int = 0  # turns undone by the next action
    at_step_limit: int = 0
    blocked_moves: int = 0
    failed: Counter = field(default_factory=Counter)  # "Action: error" -> failed interactions


def error_kind(action: str, message: str) -> str:
    """``action: message`` without object ids and numbers, so that failures of one kind count together."""
    return f"{action}: {plain_error(message)}".rstrip(": ")


def plain_error(message: str) -> str:
    """A simulator error message without object ids and numbers (the id's type stays)."""
    text = re.sub(r"(\w+)\|\S+", r"\1", message)  # "Cabinet|+00.65|+00.48|+00.24" -> "Cabinet"
    text = re.sub(r"\(?-?\d[\d.]*(?:,\s*-?\d[\d.]*)*\)?", "", text)
    return " ".join(text.split())


def census(folder: Path, rows: Iterable[dict[str, Any]]) -> Census:
    """The census of the run in ``folder`` over ``rows`` (its ``episodes.jsonl`` lines)."""
    out = Census()
    for row in rows:
        path = folder / LOGS_DIR / log_name(row["episode_id"])
        if not path.is_file():
            continue
        try:
            interactions = json.loads(path.read_text()).get("interactions", [])
        except (OSError, ValueError, AttributeError):  # unreadable: counted as without a log
            continue
        acts = [i for i in interactions if i.get("agent_id") == FOLLOWER and i.get("action") not in SPOKEN]
        out.episodes += 1
        out.actions += len(acts)
        searching = (row.get("metrics") or {}).get("search_steps")
        out.search_steps = None if searching is None or out.search_steps is None else out.search_steps + searching
        out.at_step_limit += row.get("end_reason") == "max_steps"
        out.undone_turns += sum(1 for a, b in zip(acts, acts[1:], strict=False)
                                if {a["action"], b["action"]} == TURNS and a.get("success") and b.get("success"))
        for act in acts:
            if act.get("success", True):
                continue
            if act["action"] in MOVES:
                out.blocked_moves += 1
            else:
                out.failed[error_kind(act["action"], act.get("errorMessage", ""))] += 1
    return out
