"""``FrontierPriorSearcher``: where to look next for an object that is not in memory.

First the floor: frontier cells of the map (free cells next to unknown ones) are grouped
into clusters (``scipy.ndimage.label``, 8-connected); clusters smaller than
``min_frontier`` metres across are noise; the Follower goes to the cluster nearest to it
(its cell nearest the cluster's centre) and looks around. When no frontier is left, the
receptacles in memory, most likely first under the search prior
(``mapping.search_prior``: ``learned`` from ALFRED train placements, or ``uniform``), ties
by distance: closed containers are opened, surfaces are visited. Every target is proposed
once per episode.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import ndimage

from contracts.belief import Belief
from contracts.navigation import NavigationGoal, Searcher, SearchTarget
from mapping.search_prior import likelihood, receptacle_types

CONTAINERS = ("Fridge", "Cabinet", "Drawer", "Microwave", "Safe", "Box")  # opened to look inside


class FrontierPriorSearcher(Searcher):
    def __init__(self, prior: str = "learned", min_frontier: float = 0.5, done_radius: float = 1.0) -> None:
        likelihood("Apple", "Fridge", prior)  # checks the prior's name and its table at once
        self.prior = prior
        self.min_frontier = min_frontier
        self.done_radius = done_radius
        self.done_points: list[tuple[float, float]] = []
        self.done_keys: set[str] = set()

    def next_search(self, belief: Belief, object_type: str) -> SearchTarget | None:
        return self._frontier(belief) or self._receptacle(belief, object_type)

    def searched(self, target: SearchTarget) -> None:
        if target.goal.point is not None:
            self.done_points.append(target.goal.point)
        if target.goal.instance is not None:
            self.done_keys.add(target.goal.instance)

    def _frontier(self, belief: Belief) -> SearchTarget | None:
        grid = belief.grid
        labels, count = ndimage.label(grid.frontiers(), structure=np.ones((3, 3), dtype=bool))
        if count == 0:
            return None
        here = (belief.pose.x, belief.pose.z)
        best, best_distance = None, math.inf
        for index, cells in enumerate(ndimage.find_objects(labels), start=1):
            rows, cols = np.nonzero(labels[cells] == index)
            span = max(rows.max() - rows.min(), cols.max() - cols.min()) + 1
            if span * grid.resolution < self.min_frontier:
                continue
            rows, cols = rows + cells[0].start, cols + cells[1].start
            k = int(np.argmin((rows - rows.mean()) ** 2 + (cols - cols.mean()) ** 2))
            point = grid.center_of(int(rows[k]), int(cols[k]))
            if any(math.dist(point, done) < self.done_radius for done in self.done_points):
                continue
            distance = math.dist(point, here)
            if distance < best_distance:
                best, best_distance = point, distance
        return SearchTarget(NavigationGoal(point=best), reason="frontier") if best is not None else None

    def _receptacle(self, belief: Belief, object_type: str) -> SearchTarget | None:
        kinds = set(receptacle_types())
        here = (belief.pose.x, belief.pose.z)
        candidates = []
        for instance in belief.memory.instances.values():
            if instance.object_type not in kinds or instance.key in self.done_keys or instance.times_seen == 0:
                continue
            p = likelihood(object_type, instance.object_type, self.prior)
            distance = math.dist((instance.position[0], instance.position[2]), here)
            candidates.append((-p, distance, instance.key, instance, p))
        if not candidates:
            return None
        _, _, _, instance, p = min(candidates)
        closed = instance.object_type in CONTAINERS and instance.states.get("is_open") is not True
        reason = f"{instance.object_type}: P({object_type} in {instance.object_type}) = {p:.2f} ({self.prior})"
        return SearchTarget(NavigationGoal(instance=instance.key), open_receptacle=closed, reason=reason)
