"""``nesy clicks``: where a run's clicks went, read off its episode logs and the ground truth.

Each log (``DIR/logs/<episode_id>.json`` of ``nesy eval``) is re-simulated as ``nesy replay``
does, without drawing. At every Follower interaction given as a click, the audit resolves
the click the way the simulator is about to (``simulator.targeting.resolve_target``), then
records what the Follower meant (``meant``: the type it believed the target to be, which
the ``modular`` Follower logs; "?" in logs without it), the type drawn under the click's
pixel ("-": nothing but the room), and, when the simulator accepted the action, the type
it acted on (a put's: the receptacle the thing landed in). A click is **off** when it was
accepted but acted on another type than the one meant (a sink basin and the sink around
it are one kind, as ``planner.knowledge.ALIASES`` has them): the put meant for the sink that landed on the
counter beside it, the pickup of a mug meant as the pot. An offline check: it reads ground
truth, so it lives here, never in a Follower.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from agent.evaluation.census import plain_error
from agent.evaluation.replay import LogSettings, load_log, logged_steps
from planner.knowledge import ALIASES


@dataclass(frozen=True)
class Click:
    """One Follower click and where it went."""

    episode_id: str
    step: int
    action: str
    meant: str  # the type the Follower meant ("?" when the log does not say)
    under: str  # the type drawn under the click's pixel ("-": none)
    acted: str  # the type the simulator acted on ("" when it refused the action)
    error: str  # the simulator's message when it refused, without object ids and numbers (census.plain_error)

    @property
    def failed(self) -> bool:
        return not self.acted

    @property
    def off(self) -> bool:
        """Accepted, but on another kind of thing than the one meant."""
        if self.failed or self.meant == "?":
            return False
        return self.acted != self.meant and ALIASES.get(self.acted) != self.meant


@dataclass
class ClickAudit:
    clicks: list[Click] = field(default_factory=list)
    episodes: int = 0
    divergences: list[str] = field(default_factory=list)  # logged results the replay did not reproduce

    def summary(self, top: int = 12) -> dict[str, Any]:
        """Counts per action, and the commonest off clicks and refusals by what was meant."""
        per_action: dict[str, dict[str, int]] = {}
        for click in self.clicks:
            row = per_action.setdefault(click.action, {"clicks": 0, "refused": 0, "off": 0})
            row["clicks"] += 1
            row["refused"] += click.failed
            row["off"] += click.off
        off = Counter(f"{c.action}: {c.meant} -> {c.acted}" for c in self.clicks if c.off)
        refused = Counter(f"{c.action}: {c.meant} ({c.error}; under the click: {c.under})"
                          for c in self.clicks if c.failed)
        return {
            "episodes": self.episodes,
            "clicks": len(self.clicks),
            "refused": sum(c.failed for c in self.clicks),
            "off": sum(c.off for c in self.clicks),
            "meant_logged": sum(c.meant != "?" for c in self.clicks),
            "per_action": dict(sorted(per_action.items())),
            "off_most_common": off.most_common(top),
            "refused_most_common": refused.most_common(top),
            "divergences": len(self.divergences),
        }

    def to_dict(self) -> dict[str, Any]:
        return {"summary": self.summary(), "clicks": [asdict(c) for c in self.clicks]}


def audit_log(log: dict[str, Any], into: ClickAudit) -> None:
    """Re-simulate one episode log and add its Follower clicks to ``into``."""
    from simulator.actions import ACTIONS
    from simulator.episodes.model import episode_from_dict
    from simulator.sim import FOLLOWER, Simulator
    from simulator.targeting import attached_frames, resolve_target

    episode = episode_from_dict(log["episode"])
    settings = dict(log.get("simulator") or {})
    sim = Simulator(LogSettings(**settings) if settings else None)
    try:
        sim.reset(episode.start)
        for index, entry, apply in logged_steps(sim, log, into.divergences, f"{episode.episode_id} "):
            if apply is None:
                continue
            action, click = entry.get("action"), None
            if entry.get("agent_id") == FOLLOWER and "x" in entry and "y" in entry and action in ACTIONS:
                world = sim.world
                target, _ = resolve_target(world, FOLLOWER, ACTIONS[action], {"x": entry["x"], "y": entry["y"]})
                provider = attached_frames(world)
                under = _drawn_at(world, provider(world, FOLLOWER), entry["x"], entry["y"]) if provider else "?"
                click = (target.obj.object_type if target.obj is not None else "", under)
            result = apply()
            if click is not None:
                into.clicks.append(Click(
                    episode.episode_id, int(entry.get("time_step", index)), action, entry.get("meant") or "?", click[1],
                    click[0] if result.success else "",
                    "" if result.success else plain_error(result.error_message or ""),
                ))
    finally:
        sim.close()
    into.episodes += 1


def _drawn_at(world: Any, frames: Any, x: float, y: float) -> str:
    h, w = frames.instance.shape
    row, col = min(max(int(y * h), 0), h - 1), min(max(int(x * w), 0), w - 1)
    obj = world.objects.get(frames.ids.get(int(frames.instance[row, col]), ""))
    return obj.object_type if obj is not None else "-"


def audit_run(folders: list[str | Path], limit: int | None = None, progress: Any = None) -> ClickAudit:
    """The clicks of every episode log in the run folders (the first ``limit`` per folder, in
    name order)."""
    from agent.evaluation.replay import ReplayError

    audit = ClickAudit()
    for folder in map(Path, folders):
        logs = sorted((folder / "logs").glob("*.json"))
        if not logs:
            raise ReplayError(f"{folder}: no episode logs in {folder / 'logs'} (a run folder of `nesy eval`)")
        for path in logs[:limit]:
            audit_log(load_log(path), audit)
            if progress is not None:
                progress.update(1)
    return audit


def markdown(audit: ClickAudit) -> str:
    """The summary as a short report."""
    s = audit.summary()
    lines = [f"Clicks of {s['episodes']} episodes: {s['clicks']}, refused {s['refused']}, "
             f"accepted but on another kind than meant {s['off']} (what was meant is logged for "
             f"{s['meant_logged']}).", "", "| action | clicks | refused | off |", "|---|---|---|---|"]
    lines += [f"| {a} | {r['clicks']} | {r['refused']} | {r['off']} |" for a, r in s["per_action"].items()]
    for title, key in (("Accepted on another kind (meant -> acted on)", "off_most_common"),
                       ("Refused (meant, the simulator's reason, what lay under the click)", "refused_most_common")):
        if s[key]:
            lines += ["", f"{title}:", ""] + [f"- {n} x {what}" for what, n in s[key]]
    if audit.divergences:
        lines += ["", f"{len(audit.divergences)} logged results the replay did not reproduce, e.g. "
                  f"{audit.divergences[0]}"]
    return "\n".join(lines)
