"""``GridNavigator``: discrete navigation over the Belief's grid map, replanned every step.

The Follower moves on AI2-THOR's lattice: 0.25 m forward moves, 90-degree turns and 30-degree
looks, starting at the odometry origin. Each call builds the lattice over the current map
(``mapping.lattice``: failed moves block, points stood on are free; map obstacles are
crossed, at a cost of extra steps, only to reach an instance -- something seen, so something there
-- and only until ``MAX_BLOCKED`` moves have failed; a frontier behind a wall is not),
finds the cheapest action sequence to a goal pose and returns its first action; the next
call plans again, so a failed move or a map that changed reroutes at once.

Goal poses for an instance: lattice points within ``reach`` of the instance's box measured
horizontally (the simulator's interaction distance, like AI2-THOR's, is the radius of a
vertical capsule around the agent: docs/simulator.md), facing it (its centre within the
90-degree field of view); each costs the looks (30 degrees each) needed to bring the box's
centre well inside the vertical field of view, and ``MARGIN_COST`` more when it is not
``reach_margin`` inside the reach (remembered extents are partial); for what lies in a
container the Follower opened, ``FRONT_COST`` per step from where it last reached into it
(``reached_from``), else opened it (its open side: from beside a fridge the door hides what
is inside); else, for what the mapper
saw (``states["seen_from"]``: where the camera stood when it saw it nearest), ``SIGHT_COST``
per 90 degrees the pose's bearing from the instance is off that one: what was seen from one
side may be hidden from another, so of two about equal routes the one towards where it was
seen from wins (not for containers: their front matters, and one seen askew from afar was
then opened from the side). What lies above the camera (its box's bottom higher than it: a
microwave over the stove, a high shelf) has no goal pose nearer than ``HIGH_NEAR`` to its middle:
from under it the camera sees the underside of what holds it. Arrival: when the mapper tells the navigator what the camera
sees (``in_view``: instance key -> the horizontal distance of its nearest seen point this
frame), the Follower has arrived as soon as the instance (or, for a movable thing that is no
sliced piece, another of its type within ``SAME_PLACE`` of where it is believed: the mapper
may hold one thing twice) is seen within reach -- wherever it
is on the way (a ``centred`` goal, a walk's: at its goal pose, looked from, seeing it); a
goal pose reached, looked from, and not seeing it is ruled out for that instance and the
next one tried (at most ``MAX_MISSES``, then the instance is unreachable: it is not where it
was believed to be, or not to be seen from there; counting it as arrived stopped the search
with nothing in view). Those poses are forgotten once the instance is believed more than
``MOVED`` away from where it was when they failed. Without ``in_view`` (e.g. ``oracle-map``), and for an instance
found where it is believed rather than by a detection (``contracts.belief.found_where_believed``:
a faucet behind a sink basin, inferred or detected there once), a goal pose with its looks
done is arrival.

``goal_costs(belief, goals)``: the actions from the current pose to each goal (one
Dijkstra), what the searcher ranks its targets by.

Searching (``self.searcher``, ``mapping.exploration``) says where to look for an object
that is not in memory.
"""

from __future__ import annotations

import math

import numpy as np

from contracts.belief import Belief, ObjectInstance, found_where_believed, instance_type
from contracts.navigation import (
    NavigationGoal,
    NavigationState,
    NavigationStep,
    Navigator,
    Searcher,
)
from contracts.observation import Observation
from mapping.exploration import CONTAINERS, FrontierPriorSearcher
from mapping.lattice import AHEAD, HEADINGS, STEP, Lattice
from mapping.memory_updates import PIECES, piece_of
from mapping.size_prior import fixed_sides

__all__ = ["GridNavigator", "STEP", "_Lattice"]

_Lattice = Lattice  # the old name (agent.map_quality scores the lattice's passability)
HORIZONS = (-30.0, 0.0, 30.0, 60.0)  # TEACh's camera horizons (30-degree looks)
HALF_VIEW = 40.0  # degrees: a box centre within this of the view's middle is well in view (the FOV is 90)
MARGIN_COST = 2.0  # extra steps of a goal pose outside the reach margin
FRONT_COST = 2.0  # extra steps per step a goal pose for what lies in an opened container is from where it was opened
SIGHT_COST = 2.0  # extra steps per 90 degrees a goal pose looks at an instance from off the side it was seen from
CENTRE_COST = 3.0  # extra steps per step a centred goal pose is from the middle (ALFRED-L NAV-ONLY, 105 train episodes: 0: 0.62, 1: 0.61, 3: 0.77, 10: 0.74)
# metres (horizontal, to the middle) nearer than which what lies above the camera is not looked
# for: a thing in the open microwave over the stove of six train kitchens, looked at from every
# free pose within 1.5 m: Mask R-CNN found it from 45% of the poses nearer than 0.5 m, 70-82% of
# those farther (``python -m agent.high_sight``, BENCHMARKS.md)
HIGH_NEAR = 0.5
# metres: an instance of the target's type seen this near where the target is believed shows
# it (TATC valid_unseen 0029: the mug put into the coffee machine, held apart from the mug
# detected 0.22 m off, "not seen from 3 poses" 31 times while in view from 0.8 m)
SAME_PLACE = 0.3
PIECE_TYPES = frozenset(piece_of(whole) for whole in PIECES)
MAX_MISSES = 3  # goal poses that did not show the instance before arrival is declared anyway
MOVED = 0.25  # metres an instance's believed place may shift (new sightings) before its misses are forgotten
MAX_BLOCKED = 6  # failed moves after which map obstacles are no longer crossed
WINDOW_MARGIN = 1.5  # metres of map around the explored area, the Follower and the goal
FORWARD, LEFT, RIGHT, UP, DOWN = "Forward", "Turn Left", "Turn Right", "Look Up", "Look Down"


class GridNavigator(Navigator):
    def __init__(self, camera_height: float, clearance: float = 0.0, searcher: Searcher | None = None,
                 reach_margin: float = 0.0) -> None:
        self.camera_height = camera_height
        self.clearance = clearance
        self.reach_margin = reach_margin  # prefer poses this much inside the reach (remembered extents are uncertain)
        self.searcher = searcher or FrontierPriorSearcher()
        if hasattr(self.searcher, "cost_of"):
            self.searcher.cost_of = self.goal_costs  # rank search targets by the actions to reach them
        self.blocked: set[tuple[int, int]] = set()  # lattice points a forward move failed into
        self.visited: set[tuple[int, int]] = set()  # lattice points the Follower stood on
        self.in_view: dict[str, float] | None = None  # set by a mapper that knows what the camera sees
        self.misses: dict[str, set[tuple[int, int, int]]] = {}  # goal poses that did not show an instance
        self.missed_at: dict[str, tuple[float, float]] = {}  # where the instance was believed when they were
        self.gave_up: set[str] = set()  # instances declared unreachable: no goal pose showed them

    def sees(self, key: str, reach: float, belief: Belief | None = None) -> bool:
        """Is the instance in the current frame within ``reach`` of the camera? With the
        ``belief``, so is a thing that can be moved when the mapper holds another of its type
        within ``SAME_PLACE`` of where it is believed (the same thing, or its twin: either can
        be clicked there; not fixtures or sliced pieces, which lie side by side: the burner next
        to the one meant is another burner, the slice next to the one washed an unwashed one)."""
        if self.in_view is None:
            return False
        if self.in_view.get(key, math.inf) <= reach:
            return True
        instances = belief.memory.instances if belief is not None else {}
        target = instances.get(key)
        if target is None or target.object_type in PIECE_TYPES or target.object_type in fixed_sides():
            return False
        return any(
            distance <= reach and other in instances and instances[other].object_type == target.object_type
            and math.dist(instances[other].position, target.position) <= SAME_PLACE
            for other, distance in self.in_view.items() if other != key)

    def step(self, observation: Observation, belief: Belief, goal: NavigationGoal,
             max_misses: int = MAX_MISSES) -> NavigationStep:
        """The next action towards ``goal``; ``max_misses``: goal poses that may fail to
        show an instance before it is unreachable."""
        pose = belief.pose
        here, heading = _lattice_pose(pose)
        if observation.last_action == FORWARD and not observation.last_action_success:
            dx, dz = AHEAD[heading]
            self.blocked.add((here[0] + dx, here[1] + dz))
        self.blocked.discard(here)
        self.visited.add(here)
        instance = None
        if goal.instance is not None:
            instance = belief.memory.instances.get(goal.instance)
            if instance is None:
                return NavigationStep(NavigationState.UNREACHABLE, reason=f"{goal.instance} is not in memory")
            if self.sees(goal.instance, goal.seen_within or goal.reach, belief) and not goal.centred:
                return NavigationStep(NavigationState.ARRIVED)
            target = (instance.position[0], instance.position[2])
            self._forget_moved(goal.instance, target)
        else:
            target = goal.point
        soft = instance is not None and len(self.blocked) < MAX_BLOCKED  # cross map obstacles to reach what was seen
        lattice = Lattice(belief.grid, self.clearance, here, self.blocked, self.visited,
                          _window(belief, here, [target] if target is not None else []), soft)
        for _ in range(max_misses + 1):
            if instance is not None:
                goals, horizons = self._facing(lattice, instance.position, instance.extent, goal.reach, pose.horizon,
                                               goal.centred, opened_from(belief, instance), seen_from(instance))
                for i, j, h in self.misses.get(goal.instance, ()):
                    if lattice.inside((i, j)):
                        goals[i - lattice.i0, j - lattice.j0, h] = np.inf
            else:
                goals, horizons = lattice.near(target), None
            if not np.isfinite(goals).any():
                return NavigationStep(NavigationState.UNREACHABLE, reason="no pose on the map is within reach of it")
            found = lattice.path(here, heading, goals)
            if found is None:
                return NavigationStep(NavigationState.UNREACHABLE, reason="no path to it over the map")
            path, _ = found
            if len(path) > 1:
                return NavigationStep(NavigationState.MOVING, _move(path[0], path[1]))
            if horizons is None:
                return NavigationStep(NavigationState.ARRIVED)
            wanted = horizons[here[0] - lattice.i0, here[1] - lattice.j0, heading]
            if abs(wanted - pose.horizon) >= 1:
                return NavigationStep(NavigationState.MOVING, DOWN if wanted > pose.horizon else UP)
            misses = self.misses.setdefault(goal.instance, set())
            if self.in_view is None or found_where_believed(instance):  # nothing to see it by
                return NavigationStep(NavigationState.ARRIVED)
            if self.sees(goal.instance, goal.reach, belief):  # a centred goal arrives only here, at its goal pose
                return NavigationStep(NavigationState.ARRIVED)
            if len(misses) >= max_misses:
                self.gave_up.add(goal.instance)
                return NavigationStep(NavigationState.UNREACHABLE, reason=f"not seen from {len(misses)} poses")
            misses.add((*here, heading))  # here and looking, yet not seen within reach: try another pose
            self.missed_at[goal.instance] = target
        return NavigationStep(NavigationState.ARRIVED)

    def given_up_where_believed(self, instance: ObjectInstance) -> bool:
        """Was ``instance`` declared unreachable ("not seen from N poses") while believed
        where it is believed now (not moved since by a sighting or a hint)?"""
        at = self.missed_at.get(instance.key)
        return instance.key in self.gave_up and at is not None \
            and math.hypot(instance.position[0] - at[0], instance.position[2] - at[1]) <= MOVED

    def reconsider(self, object_types: frozenset[str]) -> None:
        """Instances of these types given up ("not seen from 3 poses") get their goal poses
        again: the planner, told of them, plans them again, and an instance given up failed
        the skill at once with no step taken, turn after turn (TATC valid_unseen 0264: 700
        turns of Stop)."""
        for key in [k for k in self.misses if instance_type(k) in object_types]:
            self.misses.pop(key, None)
            self.missed_at.pop(key, None)
            self.gave_up.discard(key)

    def _forget_moved(self, key: str, where: tuple[float, float]) -> None:
        """Poses that did not show an instance say nothing once it is believed elsewhere (the
        Follower carried it off, a hint or a sighting moved it): a potato looked for on the
        fridge from three poses, then put into the microwave, was 'unreachable' at the first
        pose that did not show it there (TATC train 0321)."""
        at = self.missed_at.setdefault(key, where) if self.misses.get(key) else None
        if at is not None and math.hypot(where[0] - at[0], where[1] - at[1]) > MOVED:
            self.misses.pop(key, None)
            self.missed_at.pop(key, None)
            self.gave_up.discard(key)

    def goal_costs(self, belief: Belief, goals: list[NavigationGoal]) -> list[float]:
        """Actions (moves, turns, looks) from the current pose to a pose of each goal, from
        one Dijkstra over the lattice as ``step`` builds it (inf: no pose on the map); what
        the searcher ranks its candidates by."""
        pose = belief.pose
        here, heading = _lattice_pose(pose)
        instances = [belief.memory.instances.get(g.instance) if g.instance is not None else None for g in goals]
        points = [(i.position[0], i.position[2]) if i is not None else g.point for g, i in zip(goals, instances, strict=True)]
        lattice = Lattice(belief.grid, self.clearance, here, self.blocked, self.visited,
                          _window(belief, here, [p for p in points if p is not None]), len(self.blocked) < MAX_BLOCKED)
        found = lattice.costs(here, heading)
        if found is None:
            return [math.inf] * len(goals)
        distance = found[0]
        out = []
        for goal, instance, point in zip(goals, instances, points, strict=True):
            if instance is not None:
                costs, _ = self._facing(lattice, instance.position, instance.extent, goal.reach, pose.horizon,
                                        goal.centred, opened_from(belief, instance), seen_from(instance))
            elif point is not None:
                costs = lattice.near(point)
            else:
                out.append(math.inf)
                continue
            out.append(float(np.min(distance + costs.ravel())))
        return out

    def _facing(self, lattice: Lattice, position, extent, reach: float, horizon: float,
                centred: bool = False, front: tuple[float, float] | None = None,
                sight: tuple[float, float] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Goal costs (looks needed, plus MARGIN_COST outside the margin, plus with
        ``centred`` the steps from the box's middle, with ``front`` the steps from that
        point, else with ``sight`` SIGHT_COST per 90 degrees off the bearing from the box to
        that point; inf: not a goal) and the horizon to look at it with, per lattice pose."""
        x, y, z = position
        hx, hz = extent[0] / 2, extent[2] / 2
        px, pz = np.meshgrid(lattice.xs, lattice.zs, indexing="ij")
        dx = np.maximum(np.abs(px - x) - hx, 0)
        dz = np.maximum(np.abs(pz - z) - hz, 0)
        distance = np.hypot(dx, dz)
        near = (distance <= reach) & ((dx > 0) | (dz > 0)) & lattice.open
        if y - extent[1] / 2 > self.camera_height:  # above the camera: not from under it
            near &= np.hypot(px - x, pz - z) >= HIGH_NEAR
        extra = np.where(distance <= reach - self.reach_margin, 0.0, MARGIN_COST)
        if centred:
            extra = extra + CENTRE_COST * np.hypot(px - x, pz - z) / STEP
        if front is not None:
            extra = extra + FRONT_COST * np.hypot(px - front[0], pz - front[1]) / STEP
        elif sight is not None:
            seen = math.atan2(sight[0] - x, sight[1] - z)
            off = np.abs((np.arctan2(px - x, pz - z) - seen + math.pi) % (2 * math.pi) - math.pi)
            extra = extra + SIGHT_COST * np.degrees(off) / 90.0
        # the horizon nearest the current one that has the box's centre well in view
        elevation = np.degrees(np.arctan2(self.camera_height - y, np.maximum(np.hypot(px - x, pz - z), 1e-6)))
        fits = np.abs(elevation[..., None] - np.array(HORIZONS)) <= HALF_VIEW
        looks = np.where(fits, np.abs(np.array(HORIZONS) - horizon) / 30.0, np.inf)
        k = np.argmin(looks, axis=-1)
        look_cost = np.take_along_axis(looks, k[..., None], axis=-1)[..., 0]
        wanted = np.array(HORIZONS)[k]
        bearing = np.degrees(np.arctan2(x - px, z - pz)) % 360  # 0 faces +z, 90 faces +x
        goals = np.full((*lattice.shape, 4), np.inf)
        for h, facing in enumerate(HEADINGS):
            off = np.abs((bearing - facing + 180) % 360 - 180)
            goals[..., h] = np.where(near & (off <= 45), look_cost + extra, np.inf)
        return goals, np.repeat(wanted[..., None], 4, axis=2)


def opened_from(belief: Belief, instance) -> tuple[float, float] | None:
    """Where the Follower stood when it last reached into the container ``instance`` lies in
    (put into it, took or sliced something in it: the mapper's ``reached_from``), else when
    it opened it (None: not in one it opened, or closed again). A microwave opened from its
    side showed the slices inside it from there as a sliver (TATC 0120)."""
    container = belief.memory.instances.get(instance.container or "")
    if container is None or not container.states.get("is_open"):
        return None
    return container.states.get("reached_from") or container.states.get("opened_from")


def seen_from(instance) -> tuple[float, float] | None:
    """Where the camera stood (x, z) when the instance was seen nearest (the mapper's
    ``states["seen_from"]``; None: never seen, moved by the Follower since, or a container)."""
    found = instance.states.get("seen_from")
    return None if found is None or instance.object_type in CONTAINERS else (found[0], found[1])


def _lattice_pose(pose) -> tuple[tuple[int, int], int]:
    """The lattice point and heading index (0-3) of an odometry pose."""
    return (round(pose.x / STEP), round(pose.z / STEP)), int(round(pose.heading / 90)) % 4


def _window(belief: Belief, here: tuple[int, int], targets: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    """(xmin, xmax, zmin, zmax): the explored part of the map, the Follower and the
    targets, plus WINDOW_MARGIN."""
    grid = belief.grid
    rows = np.flatnonzero(grid.explored.any(axis=1))
    cols = np.flatnonzero(grid.explored.any(axis=0))
    xs, zs = [here[0] * STEP], [here[1] * STEP]
    if len(rows):
        (x0, z0), res = grid.origin, grid.resolution
        xs += [x0 + cols[0] * res, x0 + (cols[-1] + 1) * res]
        zs += [z0 + rows[0] * res, z0 + (rows[-1] + 1) * res]
    xs += [t[0] for t in targets]
    zs += [t[1] for t in targets]
    m = WINDOW_MARGIN
    return min(xs) - m, max(xs) + m, min(zs) - m, max(zs) + m


def _move(a: tuple[int, int, int], b: tuple[int, int, int]) -> str:
    if a[:2] != b[:2]:
        return FORWARD
    return RIGHT if (b[2] - a[2]) % 4 == 1 else LEFT
