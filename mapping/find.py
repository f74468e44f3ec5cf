"""``FindAndReach``: find an object of a type and reach a pose that sees it within reach,
with the semantic mapper's memory, navigator and searcher (what ``nesy bench nav`` drives).

Each step, in this order:
1. an instance of the type is in the current frame within reach of the camera (the
   mapper's ``sees``): stop -- wherever that happens (turning at the start, on the way to a
   frontier, ...);
2. a remembered instance of the type (nearest first, skipping ones found unreachable):
   the navigator's next move towards a pose that sees it, or stop when it says arrived;
3. at the start: turn towards where the map is still unknown (``searcher.look_around``);
4. the searcher's target: walk to a frontier and turn towards the unknown there, or walk
   to a receptacle and look at it, opening a closed one with a click inside its mask. A
   receptacle not seen from two of its goal poses is given up (``SEARCH_MISSES``; the
   navigator's default of three is kept for the object itself): such a receptacle is mostly
   a piece of one remembered apart (a sliver at the frame's edge, an opened door) that no
   later sighting is fused into; on 104 train episodes 51 of them cost three poses each
   (SPL 0.616 -> 0.620, 27.1 -> 24.1 steps; giving up at the first pose lost successes).
Instances found unreachable are tried again after each search target (the map has grown).
"""

from __future__ import annotations

import math

import numpy as np

from contracts.belief import Belief
from contracts.geometry import depth_to_points
from contracts.navigation import NavigationGoal, NavigationState, SearchTarget
from contracts.observation import Observation
from contracts.perception import Detection
from contracts.planning import LowLevelAction
from mapping.semantic import SemanticMapper

SEARCH_TRIES = 200  # search targets tried in one step (each found unreachable or reached without a move)
REACH = 1.5  # metres: AI2-THOR's interaction distance, from the camera
REACH_SLACK = 0.0  # stop this much inside the reach (the nearest seen point is never nearer than the box)
SEARCH_MISSES = 1  # a receptacle to search is given up when a second goal pose does not show it either


class FindAndReach:
    """Search, then go to the remembered instance; ``next_action`` is None when it stops
    (``arrived`` says whether it believes it sees the object within reach)."""

    def __init__(self, mapper: SemanticMapper, object_type: str) -> None:
        self.mapper, self.object_type = mapper, object_type
        self.navigator = mapper.navigator()
        self.target: SearchTarget | None = None
        self.looks: list[str] | None = None  # quarter turns still to make here (None: decide at the start)
        self.unreachable: set[str] = set()  # remembered instances with no path yet
        self.arrived = False

    def next_action(self, observation: Observation, belief: Belief,
                    detections: list[Detection]) -> LowLevelAction | None:
        if self.mapper.sees(self.object_type, REACH - REACH_SLACK):
            self.arrived = True
            return None
        seen = [i for i in belief.memory.of_type(self.object_type) if i.times_seen > 0 and i.key not in self.unreachable]
        seen.sort(key=lambda i: math.hypot(i.position[0] - belief.pose.x, i.position[2] - belief.pose.z))
        if seen:
            step = self.navigator.step(observation, belief, NavigationGoal(instance=seen[0].key, reach=REACH - REACH_SLACK))
            if step.state == NavigationState.MOVING:
                return LowLevelAction(step.action)
            if step.state == NavigationState.ARRIVED:
                self.arrived = True
                return None
            self.unreachable.add(seen[0].key)
        if self.looks is None:  # first look around where it starts, where the view is still unknown
            self.looks = self.navigator.searcher.look_around(belief)
        if self.looks:
            return LowLevelAction(self.looks.pop(0))
        return self._search(observation, belief, detections)

    def _search(self, observation: Observation, belief: Belief, detections: list[Detection]) -> LowLevelAction | None:
        searcher = self.navigator.searcher
        for _ in range(SEARCH_TRIES):
            if self.target is None:
                self.target = searcher.next_search(belief, self.object_type)
                if self.target is None:
                    return None  # searched everything
            step = self.navigator.step(observation, belief, self.target.goal, max_misses=SEARCH_MISSES)
            if step.state == NavigationState.MOVING:
                return LowLevelAction(step.action)
            done, self.target = self.target, None
            searcher.searched(done)
            self.unreachable.clear()  # the map has grown: try the remembered ones again
            if step.state == NavigationState.ARRIVED:
                if done.open_receptacle:
                    click = click_on(observation, belief, detections, done.goal.instance, self.mapper)
                    if click is not None:
                        return LowLevelAction("Open", {"x": click[0], "y": click[1]}, done.goal.instance)
                elif done.goal.point is not None:  # a frontier: look where the map is still unknown
                    self.looks = searcher.look_around(belief)
                    if self.looks:
                        return LowLevelAction(self.looks.pop(0))
        return None


def click_on(observation: Observation, belief: Belief, detections: list[Detection], key: str,
             mapper: SemanticMapper) -> tuple[float, float] | None:
    """A click inside the mask of the detection that is the remembered instance ``key``."""
    instance = belief.memory.instances[key]
    points = depth_to_points(observation.depth, observation.pose, mapper.context.camera)
    best, best_distance = None, math.inf
    for detection in detections:
        if detection.object_type != instance.object_type:
            continue
        hits = points[detection.mask]
        hits = hits[np.isfinite(hits[:, 0])]
        if len(hits):
            centre = np.median(hits, axis=0)
            distance = math.dist(centre, instance.position)  # 3-D: drawers stand in columns
            if distance < best_distance:
                best, best_distance = detection, distance
    return best.click_point() if best is not None and best_distance < 1.0 else None
