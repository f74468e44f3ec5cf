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
with the landmark's everyday name; where ALFRED's landmark is a thing the task carries away
("Go back to the plate." once it is in the microwave), the name of what it lay in then
(``place_name``). Trajectories with too few navigation steps for a
variant are left out of it, and so are REV episodes whose task cannot hold where they end
(``end_can_hold``: a look-at task is judged by a lit lamp in sight, and a walk back away
from every lamp ends it for the expert too; ALFRED-L's authors likewise deleted trajectories
they found unclear). The variants are ``nesy eval`` suites
(``alfred-nav-only``, ``alfred-rev-1``, ``alfred-rev-n``) over the same data and splits as
``alfred``; the Follower is always briefed with the step instructions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import lru_cache

from dialogue import lexicon
from simulator.actions import HORIZON_RANGE
from simulator.alfred.goals import matching
from simulator.alfred.trajectories import Trajectory
from simulator.episodes.alfred import alfred_episodes
from simulator.episodes.model import POSITION_REACH, Episode
from simulator.geometry import CAMERA_HEIGHT, Camera
from simulator.scenes import cell_center, supported_scenes
from simulator.start_state import build_world

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


def _first_arg(step: dict) -> str:
    """A high-level step's first argument, lower case ("" if none): ALFRED's landmark or object."""
    return str((step.get("args") or [""])[0]).lower()


def landmark_name(step: dict) -> str | None:
    """The everyday name of a GotoLocation step's landmark ("countertop" -> "counter")."""
    kind = _TYPES.get(_first_arg(step))
    return lexicon.surface(kind) if kind else None


@lru_cache(maxsize=1)
def _supported() -> frozenset[str]:
    return frozenset(supported_scenes())


def place_name(steps: list[dict], index: int, moved: set[str], episode: Episode,
               stood: tuple[float, float]) -> str | None:
    """The everyday name of the place walk ``index`` went to: its landmark, unless that is a
    thing the task carries away (ALFRED names a walk after the object itself when it lies on
    no landmark of its own, "alarmclock", and after a movable receptacle, "plate"): "Go back
    to the plate." once the plate is in the microwave names no place. Then the receptacle the
    thing lay in at the start (the walk came before it was moved; the instance the step after
    the walk acted on, else the one nearest where the expert ``stood``), None if it lay in none."""
    arg = _first_arg(steps[index])
    if arg not in moved:
        return landmark_name(steps[index])
    if episode.floor_plan not in _supported():  # (such episodes cannot be run at all)
        return None
    world = build_world(episode.start)
    acted = next((s.get("objectId") for s in steps[index + 1:] if _first_arg(s) == arg), None)
    thing = world.objects.get(acted or "")
    if thing is None:
        things = [o for o in world.objects.values() if o.object_type.lower() == arg]
        if not things:
            return None
        thing = min(things, key=lambda o: math.hypot(o.position[0] - stood[0], o.position[2] - stood[1]))
    parent = world.objects.get(thing.parent or "")
    kind = _TYPES.get(parent.object_type.lower()) if parent is not None else None  # a type with an everyday name
    return lexicon.surface(kind) if kind and kind.lower() not in moved else None


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
    moved = {str(trajectory.pddl_params.get(k, "")).lower() for k in ("object_target", "mrecep_target")} - {""}
    names = [place_name(steps, i, moved, episode, where[i]) for i in targets]
    if None in names:
        return None
    rng = random.Random(episode.episode_id)
    texts = episode.step_texts + tuple(rng.choice(BACK).format(name) for name in names)
    actions = episode.expert_actions + 2 + sum(_nav_actions(trajectory, i) for i in navs if i > targets[-1])
    return replace(episode, episode_id=f"{episode.episode_id}:{variant}", step_texts=texts, expert_actions=actions,
                   variant=variant, final_position=where[targets[-1]])


def alfred_l_episodes(trajectories: Iterable[Trajectory], suite: str,
                      keep: Callable[[Episode], bool] = lambda episode: True) -> Iterator[Episode]:
    """The episodes of an ALFRED-L suite (``VARIANTS``' keys), one per (trajectory,
    annotation) that the variant applies to, of the ALFRED episodes ``keep`` keeps (a split:
    the others are not changed into variants at all)."""
    variant = VARIANTS[suite]
    for trajectory in trajectories:
        for episode in filter(keep, alfred_episodes([trajectory])):
            changed = variant_episode(trajectory, episode, variant)
            if changed is not None:
                yield changed


def end_can_hold(episode: Episode) -> bool:
    """Can the episode's task conditions hold at some pose within ``POSITION_REACH`` of where
    it must end? Only a look-at task's depend on the pose: ALFRED (and
    ``simulator.alfred.goals``) wants a lit lamp of the task's type *in sight* at the end, so
    "Walk back to the desk." after "Turn on the lamp." succeeds only if some pose near the
    desk sees a lamp (46 of the 105 dev REV-1 look-at trials: none does). Every other task
    can, and NAV-ONLY episodes have no task (their last walk ends at the lamp, besides)."""
    if episode.variant not in ("rev-1", "rev-n") or episode.task_type != "look_at_obj_in_light":
        return True
    world = build_world(episode.start)
    lamps = {o.object_id for o in matching(world, episode.pddl_params.get("toggle_target", ""), "toggleable")}
    end_x, end_z = episode.final_position
    sight = POSITION_REACH + world.interaction_distance + 0.5  # no lamp this near: none in sight
    if not any(math.hypot(world.objects[i].position[0] - end_x, world.objects[i].position[2] - end_z) <= sight
               for i in lamps):
        return False
    low, high = (int(h) for h in HORIZON_RANGE)
    for cell in world.scene.navigable:
        x, z = cell_center(cell)
        if math.hypot(x - end_x, z - end_z) > POSITION_REACH:
            continue
        for rotation in (0, 90, 180, 270):
            for horizon in range(low, high + 1, 15):
                if lamps & set(world.visible_from(Camera(x, CAMERA_HEIGHT, z, rotation, horizon, world.field_of_view))):
                    return True
    return False


def solvable(episodes: Iterable[Episode]) -> list[Episode]:
    """``episodes`` without those whose task cannot hold where they end (``end_can_hold``;
    decided once per trial and end: a trial's annotations share both)."""
    decided: dict[tuple, bool] = {}
    kept = []
    for episode in episodes:
        key = (episode.episode_id.split(":")[0], episode.variant, episode.final_position)
        if key not in decided:
            decided[key] = end_can_hold(episode)
        if decided[key]:
            kept.append(episode)
    return kept
