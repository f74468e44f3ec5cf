"""What the Follower was doing at every action of an episode, read from its log (``nesy timeline``).

The modular Follower writes with each action the plan step it serves (``doing`` in the
episode log: "search Plate", "PickupObject Lettuce#2", "told: Forward", ...) and the steps
it gave up since its last action, with the skill's reason (``gave_up``). A timeline
collapses the actions into spans of one step each, with the Commander's words and the steps
given up where they came, and totals the actions per kind of step (the instance numbers
left out: "search Plate", "PickupObject Lettuce") and the steps given up per reason, so that
where a failed episode's 1,000 actions went reads at a glance. Over a run's episodes the
totals add up, for the failed ones or all.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.evaluation.census import SPOKEN, plain_error
from agent.evaluation.results import LOGS_DIR, log_name
from contracts.errors import NesyError
from contracts.observation import COMMANDER, FOLLOWER

UNLABELLED = "(not logged)"  # a Follower that does not write ``doing``, or a log from before it did


@dataclass
class Span:
    """Consecutive Follower actions serving one plan step."""

    doing: str
    first: int  # the simulator's time step of the first action
    last: int
    actions: Counter = field(default_factory=Counter)  # action name -> count
    failed: Counter = field(default_factory=Counter)  # "Action: error" -> count

    @property
    def size(self) -> int:
        return sum(self.actions.values())


@dataclass
class Timeline:
    episode_id: str
    entries: list[Span | str]  # spans, the Commander's utterances and the steps given up, in order
    given_up: list[str] = field(default_factory=list)  # "step: reason", in order

    @property
    def spans(self) -> list[Span]:
        return [e for e in self.entries if isinstance(e, Span)]


def step_kind(doing: str) -> str:
    """A plan step's kind: its words without instance numbers ("PickupObject Lettuce#2" -> "PickupObject Lettuce")."""
    return re.sub(r"#\d+(~\d+)?", "", doing)


def reason_kind(given_up: str) -> str:
    """Why a step was given up, without instance numbers and counts ("PickupObject Plate:
    Plate is unreachable: not seen from poses")."""
    return plain_error(step_kind(given_up))


def timeline(log: dict[str, Any], episode_id: str = "") -> Timeline:
    entries: list[Span | str] = []
    given_up: list[str] = []
    current: Span | None = None
    for item in log.get("interactions", []):
        if item.get("agent_id") == COMMANDER and item.get("utterance"):
            entries.append(f"Commander: {item['utterance']}")
            current = None
            continue
        if item.get("agent_id") == FOLLOWER and item.get("gave_up"):
            steps = item["gave_up"].split("; ")
            given_up += steps
            entries += [f"gave up {g}" for g in steps]
            current = None
        if item.get("agent_id") != FOLLOWER or item.get("action") in SPOKEN:
            continue
        doing, step = item.get("doing", UNLABELLED), int(item.get("time_step", 0))
        if current is None or current.doing != doing:
            current = Span(doing, step, step)
            entries.append(current)
        current.last = step
        current.actions[item["action"]] += 1
        if not item.get("success", True):
            current.failed[f"{item['action']}: {plain_error(item.get('errorMessage', ''))}".rstrip(": ")] += 1
    return Timeline(episode_id or log.get("episode", {}).get("episode_id", ""), entries, given_up)


def kinds(timelines: Iterable[Timeline]) -> Counter:
    """Actions per kind of step over these timelines."""
    out: Counter = Counter()
    for line in timelines:
        for span in line.spans:
            out[step_kind(span.doing)] += span.size
    return out


def reasons(timelines: Iterable[Timeline]) -> Counter:
    """Steps given up per reason over these timelines."""
    return Counter(reason_kind(g) for line in timelines for g in line.given_up)


def read_timelines(folder: str | Path, episode_ids: Iterable[str] = (), failed_only: bool = False) -> list[Timeline]:
    """The timelines of a run folder's episodes (these ids, else every logged one; only the
    unsuccessful ones with ``failed_only``)."""
    folder = Path(folder)
    rows_path = folder / "episodes.jsonl"
    if not rows_path.is_file():
        raise NesyError(f"{folder} holds no episodes.jsonl: give a folder written by `nesy eval --out`")
    rows = [json.loads(line) for line in rows_path.read_text().splitlines() if line.strip()]
    wanted = list(episode_ids)
    known = {row["episode_id"] for row in rows}
    if unknown := [e for e in wanted if e not in known]:
        raise NesyError(f"{folder} has no episode {', '.join(unknown)} (its episodes.jsonl lists {len(known)})")
    chosen = [r for r in rows if (not wanted or r["episode_id"] in wanted) and not (failed_only and r.get("success"))]
    out = []
    for row in chosen:
        path = folder / LOGS_DIR / log_name(row["episode_id"])
        if path.is_file():
            out.append(timeline(json.loads(path.read_text()), row["episode_id"]))
        elif wanted:
            raise NesyError(f"{path} is missing: the run kept no log of episode {row['episode_id']}")
    return out


def render(line: Timeline, shortest: int = 1) -> str:
    """The timeline as text: one line per span of at least ``shortest`` actions (shorter
    ones are counted in a "..." line), the Commander's words between them."""
    out = [f"# {line.episode_id}"]
    hidden = 0
    for entry in line.entries:
        if isinstance(entry, str):
            out.append(f"      {entry}")
            continue
        if entry.size < shortest:
            hidden += entry.size
            continue
        if hidden:
            out.append(f"      ... {hidden} actions in shorter spans")
            hidden = 0
        failed = "; failed " + ", ".join(f"{k} x{n}" for k, n in entry.failed.most_common()) if entry.failed else ""
        moves = ", ".join(f"{a} {n}" for a, n in entry.actions.most_common(3))
        out.append(f"{entry.first:>5}-{entry.last:<5} {entry.size:>4}  {entry.doing}  ({moves}{failed})")
    if hidden:
        out.append(f"      ... {hidden} actions in shorter spans")
    return "\n".join(out)


def render_totals(timelines: list[Timeline], top: int = 20) -> str:
    """Actions per kind of plan step and steps given up per reason, the most first."""
    counts, why = kinds(timelines), reasons(timelines)
    total = sum(counts.values()) or 1
    out = [f"actions per kind of plan step, {len(timelines)} episodes, {total} actions:"]
    out += [f"{n:>7}  {100 * n / total:5.1f}%  {kind}" for kind, n in counts.most_common(top)]
    out += ["", f"steps given up, {sum(why.values())}, by reason:"]
    out += [f"{n:>7}  {kind}" for kind, n in why.most_common(top)]
    return "\n".join(out)
