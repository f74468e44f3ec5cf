"""``FrontierPriorSearcher``: where to look next for an object that is not in memory.

Candidates are frontiers of the floor and receptacles in memory. Frontier cells (free
cells next to unknown ones) are grouped into clusters (``scipy.ndimage.label``,
8-connected); clusters smaller than ``min_frontier`` metres across are noise; a cluster is
reached at its cell nearest the cluster's centre and looked around from. A receptacle seen
in memory is worth its probability of holding the object under the search prior
(``mapping.search_prior``: ``learned`` from ALFRED train placements, or ``uniform``);
closed containers are opened, surfaces visited. A frontier is worth ``frontier_value`` (the
chance that unexplored floor shows the object). The searcher proposes the candidate with
the highest value / (1 + distance / ``distance_scale``): with the learned prior a likely
fridge beats a far frontier; with the uniform prior (every receptacle worth 1/K) the floor
is explored first. Every target is proposed once per episode.
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
    def __init__(self, prior: str = "learned", min_frontier: float = 0.5, done_radius: float = 1.0,
                 frontier_value: float = 0.1, distance_scale: float = 2.0) -> None:
        likelihood("Apple", "Fridge", prior)  # checks the prior's name and its table at once
        self.prior = prior
        self.min_frontier = min_frontier
        self.done_radius = done_radius
        self.frontier_value = frontier_value
        self.distance_scale = distance_scale
        self.done_points: list[tuple[float, float]] = []
        self.done_keys: set[str] = set()

    def next_search(self, belief: Belief, object_type: str) -> SearchTarget | None:
        here = (belief.pose.x, belief.pose.z)
        scored = [(value / (1 + math.dist(point, here) / self.distance_scale), k, target)
                  for k, (value, point, target) in enumerate(self._frontiers(belief) + self._receptacles(belief, object_type))]
        return max(scored, key=lambda s: (s[0], -s[1]))[2] if scored else None

    def searched(self, target: SearchTarget) -> None:
        if target.goal.point is not None:
            self.done_points.append(target.goal.point)
        if target.goal.instance is not None:
            self.done_keys.add(target.goal.instance)

    def _frontiers(self, belief: Belief) -> list[tuple[float, tuple[float, float], SearchTarget]]:
        grid = belief.grid
        labels, count = ndimage.label(grid.frontiers(), structure=np.ones((3, 3), dtype=bool))
        out = []
        for index, cells in enumerate(ndimage.find_objects(labels) if count else (), start=1):
            rows, cols = np.nonzero(labels[cells] == index)
            span = max(rows.max() - rows.min(), cols.max() - cols.min()) + 1
            if span * grid.resolution < self.min_frontier:
                continue
            rows, cols = rows + cells[0].start, cols + cells[1].start
            k = int(np.argmin((rows - rows.mean()) ** 2 + (cols - cols.mean()) ** 2))
            point = grid.center_of(int(rows[k]), int(cols[k]))
            if any(math.dist(point, done) < self.done_radius for done in self.done_points):
                continue
            out.append((self.frontier_value, point, SearchTarget(NavigationGoal(point=point), reason="frontier")))
        return out

    def _receptacles(self, belief: Belief, object_type: str) -> list[tuple[float, tuple[float, float], SearchTarget]]:
        kinds = set(receptacle_types())
        out = []
        for instance in belief.memory.instances.values():
            if instance.object_type not in kinds or instance.key in self.done_keys or instance.times_seen == 0:
                continue
            p = likelihood(object_type, instance.object_type, self.prior)
            closed = instance.object_type in CONTAINERS and instance.states.get("is_open") is not True
            reason = f"{instance.object_type}: P({object_type} in {instance.object_type}) = {p:.2f} ({self.prior})"
            target = SearchTarget(NavigationGoal(instance=instance.key), open_receptacle=closed, reason=reason)
            out.append((p, (instance.position[0], instance.position[2]), target))
        return out
