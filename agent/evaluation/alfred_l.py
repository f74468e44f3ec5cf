"""ALFRED-L (../shared/seeds/alfred-l.txt): ALFRED episodes changed so that following the
language, not the usual task structure, is what succeeds.

From one ALFRED trajectory and one of its annotations (the step instructions are one per
high-level PDDL step, the last ``NoOp`` aside):
- ``nav-only``: only the instructions of the ``GotoLocation`` steps, no goal sentence and no
  task; success: the Follower ends within ``POSITION_REACH`` (1.25 m, five AI2-THOR steps) of
  where the expert stood after the last of them;
- ``rev-1``: every instruction, then one more sending the Follower back to the landmark of
  the navigation step before the last ("Walk back to the microwave."); success: the task's
  goal conditions and the end within 1.25 m of where the expert stood after that step;
- ``rev-n``: the same with two such instructions, back over the last two navigation steps
  before the final one, ending at the older landmark.

Where the expert stood after each step comes from its recorded low-level actions replayed
as AI2-THOR moves them (0.25 m ahead, 90-degree turns; recorded moves all succeeded). The
added sentences use the words ALFRED's annotators used most ("walk back", "go back", "move back"),
with the landmark's everyday name. Trajectories with too few navigation steps for a
variant are left out of it. The variants are ``nesy eval`` suites
(``alfred-nav-only``, ``alfred-rev-1``, ``alfred-rev-n``) over the same data and splits as
``alfred``; the Follower is always briefed with the step instructions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator
from dataclasses import replace

from dialogue import lexicon
from simulator.alfred.trajectories import Trajectory
from simulator.episodes.alfred import alfred_episodes
from simulator.episodes.model import Episode

VARIANTS = {"alfred-nav-only": "nav-only", "alfred-rev-1": "rev-1", "alfred-rev-n": "rev-n"}
MOVE = 0.25  # metres per MoveAhead
BACK = ("Walk back to the {}.", "Go back to the {}.", "Move back to the {}.")  # ALFRED's own "back" phrases
_TYPES = {t.lower(): t for t in lexicon.object_types()}


def step_positions(trajectory: Trajectory) -> dict[int, tuple[float, float]]:
    """Where the expert stood (world x, z) after each high-level step, by ``high_idx``."""
    init = trajectory.init_action
    x, z, rotation = float(init["x"]), float(init["z"]), int(round(float(init["rotation"]))) % 360
    where: dict[int, tuple[float, float]] = {}
    for action in trajectory.expert_low_actions:
        name = action.get("action", "")
        if name == "MoveAhead":
            x += MOVE * math.sin(math.radians(rotation))
            z += MOVE * math.cos(math.radians(rotation))
        elif name in ("RotateRight", "RotateLeft"):
            rotation = (rotation + (90 if name == "RotateRight" else -90)) % 360
        where[int(action.get("high_idx", 0))] = (round(x, 3), round(z, 3))
    before = (float(init["x"]), float(init["z"]))
    for index in range(len(trajectory.high_pddl)):  # a step without low actions (NoOp): where the last ended
        before = where.setdefault(index, before)
    return where


def _nav_actions(trajectory: Trajectory, high_idx: int) -> int:
    return sum(1 for a in trajectory.expert_low_actions if int(a.get("high_idx", 0)) == high_idx)


def landmark_name(step: dict) -> str | None:
    """The everyday name of a GotoLocation step's landmark ("countertop" -> "counter")."""
    args = step.get("args") or []
    kind = _TYPES.get(str(args[0]).lower()) if args else None
    return lexicon.surface(kind) if kind else None


def variant_episode(trajectory: Trajectory, episode: Episode, variant: str) -> Episode | None:
    """One ALFRED episode (``trajectory``'s annotation) as an ALFRED-L variant, or None when
    the trajectory has too few navigation steps for it (or its steps and words disagree)."""
    steps = [s for s in trajectory.high_pddl if s.get("action") != "NoOp"]
    if len(episode.step_texts) != len(steps):
        return None
    navs = [i for i, s in enumerate(steps) if s.get("action") == "GotoLocation"]
    where = step_positions(trajectory)
    if variant == "nav-only":
        if not navs:
            return None
        texts = tuple(episode.step_texts[i] for i in navs)
        actions = sum(_nav_actions(trajectory, i) for i in navs)
        return replace(episode, episode_id=f"{episode.episode_id}:{variant}", goal_text="", step_texts=texts,
                       expert_actions=actions, variant=variant, final_position=where[navs[-1]])
    back = 1 if variant == "rev-1" else 2
    if len(navs) < back + 1:
        return None
    targets = list(reversed(navs[-1 - back:-1]))  # the landmarks to return to, newest first
    names = [landmark_name(steps[i]) for i in targets]
    if None in names:
        return None
    rng = random.Random(episode.episode_id)
    texts = episode.step_texts + tuple(rng.choice(BACK).format(name) for name in names)
    actions = episode.expert_actions + 2 + sum(_nav_actions(trajectory, i) for i in navs if i > targets[-1])
    return replace(episode, episode_id=f"{episode.episode_id}:{variant}", step_texts=texts, expert_actions=actions,
                   variant=variant, final_position=where[targets[-1]])


def alfred_l_episodes(trajectories: Iterable[Trajectory], suite: str) -> Iterator[Episode]:
    """The episodes of an ALFRED-L suite (``VARIANTS``' keys), one per (trajectory,
    annotation) that the variant applies to."""
    variant = VARIANTS[suite]
    for trajectory in trajectories:
        for episode in alfred_episodes([trajectory]):
            changed = variant_episode(trajectory, episode, variant)
            if changed is not None:
                yield changed
