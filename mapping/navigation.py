"""``GridNavigator``: discrete navigation over the Belief's grid map, replanned every step.

The Follower moves on AI2-THOR's lattice: 0.25 m forward moves, 90-degree turns and 30-degree
looks, starting at the odometry origin. The navigator builds the lattice graph over the
current map (a lattice point is passable unless a map cell within ``clearance`` of it is an
obstacle or lies outside the map; unknown cells are optimistic: passable), adds what it
learned itself (a forward move that failed blocks the point ahead), and finds the shortest
action sequence with ``scipy.sparse.csgraph`` to the nearest pose that faces the target
within reach. The first action of that path is returned; the next call plans again, so a
failed move or a map that changed reroutes at once.

Searching (``self.searcher``, ``mapping.exploration``) says where to look for an object
that is not in memory. Goal poses for an instance: lattice points whose horizontal distance to the instance's box
is within ``reach`` (not inside the box), facing it (within the 90-degree field of view),
then looking up or down until the instance's centre is nearest the middle of the view.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from contracts.belief import Belief, Cell, GridMap
from contracts.navigation import (
    NavigationGoal,
    NavigationState,
    NavigationStep,
    Navigator,
    Searcher,
)
from contracts.observation import Observation
from mapping.exploration import FrontierPriorSearcher

STEP = 0.25  # metres per forward move (AI2-THOR's gridSize)
HORIZONS = (-30.0, 0.0, 30.0, 60.0)  # TEACh's camera horizons (30-degree looks)
HEADINGS = (0.0, 90.0, 180.0, 270.0)
_AHEAD = ((0, 1), (1, 0), (0, -1), (-1, 0))  # (dx, dz) lattice steps for headings 0, 90, 180, 270
FORWARD, LEFT, RIGHT, UP, DOWN = "Forward", "Turn Left", "Turn Right", "Look Up", "Look Down"


class GridNavigator(Navigator):
    def __init__(self, camera_height: float, clearance: float = 0.0, searcher: Searcher | None = None,
                 reach_margin: float = 0.0) -> None:
        self.camera_height = camera_height
        self.clearance = clearance
        self.reach_margin = reach_margin  # stay this much inside the reach (remembered extents are uncertain)
        self.searcher = searcher or FrontierPriorSearcher()
        self.blocked: set[tuple[int, int]] = set()  # lattice points a forward move failed into

    def step(self, observation: Observation, belief: Belief, goal: NavigationGoal) -> NavigationStep:
        pose = belief.pose
        here = (round(pose.x / STEP), round(pose.z / STEP))
        heading = int(round(pose.heading / 90)) % 4
        if observation.last_action == FORWARD and not observation.last_action_success:
            dx, dz = _AHEAD[heading]
            self.blocked.add((here[0] + dx, here[1] + dz))
        lattice = _Lattice(belief.grid, self.clearance, here, self.blocked)
        if goal.instance is not None:
            instance = belief.memory.instances.get(goal.instance)
            if instance is None:
                return NavigationStep(NavigationState.UNREACHABLE, reason=f"{goal.instance} is not in memory")
            # the margin is a preference: without a path inside it, any pose within reach will do
            margins = (self.reach_margin, 0.0) if self.reach_margin > 0 else (0.0,)
            goal_masks = [lattice.facing(instance.position, instance.extent, goal.reach - m) for m in margins]
        else:
            goal_masks = [lattice.near(goal.point)]
        if not any(targets.any() for targets in goal_masks):
            return NavigationStep(NavigationState.UNREACHABLE, reason="no pose on the map is within reach of it")
        path = next((found for targets in goal_masks if (found := lattice.path(here, heading, targets)) is not None),
                    None)
        if path is None:
            return NavigationStep(NavigationState.UNREACHABLE, reason="no path to it over the map")
        if len(path) > 1:
            return NavigationStep(NavigationState.MOVING, _move(path[0], path[1]))
        if goal.instance is not None:
            look = self._look(pose.horizon, pose, belief.memory.instances[goal.instance].position)
            if look is not None:
                return NavigationStep(NavigationState.MOVING, look)
        return NavigationStep(NavigationState.ARRIVED)

    def _look(self, horizon: float, pose, target: tuple[float, float, float]) -> str | None:
        distance = math.hypot(target[0] - pose.x, target[2] - pose.z)
        wanted = math.degrees(math.atan2(self.camera_height - target[1], max(distance, 1e-6)))
        best = min(HORIZONS, key=lambda h: abs(h - wanted))
        if abs(best - horizon) < 1:
            return None
        return DOWN if best > horizon else UP


def _shift(n: int, d: int) -> tuple[slice, slice]:
    """Slices of the points a move by ``d`` starts from and lands on, along an axis of ``n``."""
    return slice(max(-d, 0), n - max(d, 0)), slice(max(d, 0), n + min(d, 0))


def _move(a: tuple[int, int, int], b: tuple[int, int, int]) -> str:
    if a[:2] != b[:2]:
        return FORWARD
    return RIGHT if (b[2] - a[2]) % 4 == 1 else LEFT


class _Lattice:
    """The Follower's lattice over a grid map: passable points and the pose graph."""

    def __init__(self, grid: GridMap, clearance: float, here: tuple[int, int], blocked: set[tuple[int, int]]) -> None:
        (x0, z0), res = grid.origin, grid.resolution
        rows, cols = grid.shape
        self.i0, self.j0 = math.ceil(x0 / STEP), math.ceil(z0 / STEP)
        ni, nj = math.floor((x0 + cols * res) / STEP) - self.i0 + 1, math.floor((z0 + rows * res) / STEP) - self.j0 + 1
        self.shape = (max(ni, 1), max(nj, 1))
        xs = (np.arange(self.shape[0]) + self.i0) * STEP
        zs = (np.arange(self.shape[1]) + self.j0) * STEP
        cols_at = np.floor((xs - x0) / res).astype(int)
        rows_at = np.floor((zs - z0) / res).astype(int)
        inside = (cols_at[:, None] >= 0) & (cols_at[:, None] < cols) & (rows_at[None, :] >= 0) & (rows_at[None, :] < rows)
        # obstacle cells within ``clearance`` of each lattice point, by an integral image
        radius = int(math.ceil(clearance / res)) if clearance > 0 else 0
        table = np.zeros((rows + 1, cols + 1), dtype=np.int32)
        table[1:, 1:] = np.cumsum(np.cumsum(grid.occupancy == Cell.OBSTACLE, axis=0), axis=1)
        r0, r1 = np.clip(rows_at - radius, 0, rows), np.clip(rows_at + radius + 1, 0, rows)
        c0, c1 = np.clip(cols_at - radius, 0, cols), np.clip(cols_at + radius + 1, 0, cols)
        hits = table[np.ix_(r1, c1)] - table[np.ix_(r0, c1)] - table[np.ix_(r1, c0)] + table[np.ix_(r0, c0)]
        free = inside & (hits.T == 0)
        for point in blocked:
            if self._inside(point):
                free[point[0] - self.i0, point[1] - self.j0] = False
        if self._inside(here):
            free[here[0] - self.i0, here[1] - self.j0] = True  # where the Follower stands is passable
        self.free = free
        self.xs, self.zs = xs, zs
        self._searched: tuple | None = None  # (start node, distances, predecessors) of the last search

    def _inside(self, point: tuple[int, int]) -> bool:
        i, j = point[0] - self.i0, point[1] - self.j0
        return 0 <= i < self.shape[0] and 0 <= j < self.shape[1]

    def facing(self, position, extent, reach: float) -> np.ndarray:
        """ni x nj x 4 goal mask: passable points within reach of the box, facing its centre."""
        x, _, z = position
        hx, hz = extent[0] / 2, extent[2] / 2
        px, pz = np.meshgrid(self.xs, self.zs, indexing="ij")
        dx = np.maximum(np.abs(px - x) - hx, 0)
        dz = np.maximum(np.abs(pz - z) - hz, 0)
        near = (np.hypot(dx, dz) <= reach) & ((dx > 0) | (dz > 0)) & self.free
        bearing = np.degrees(np.arctan2(x - px, z - pz)) % 360  # 0 faces +z, 90 faces +x
        goals = np.zeros((*self.shape, 4), dtype=bool)
        for h, heading in enumerate(HEADINGS):
            off = np.abs((bearing - heading + 180) % 360 - 180)
            goals[..., h] = near & (off <= 45)
        return goals

    def near(self, point: tuple[float, float]) -> np.ndarray:
        """Goal mask: the passable lattice point nearest ``point`` (any heading)."""
        px, pz = np.meshgrid(self.xs, self.zs, indexing="ij")
        distance = np.where(self.free, np.hypot(px - point[0], pz - point[1]), np.inf)
        goals = np.zeros((*self.shape, 4), dtype=bool)
        if np.isfinite(distance).any():
            goals[np.unravel_index(int(np.argmin(distance)), self.shape)] = True
        return goals

    def path(self, here: tuple[int, int], heading: int, goals: np.ndarray) -> list[tuple[int, int, int]] | None:
        """The shortest pose sequence from (here, heading) to any goal pose, or None."""
        if not self._inside(here):
            return None
        ni, nj = self.shape
        node = np.arange(ni * nj * 4).reshape(ni, nj, 4)
        start = node[here[0] - self.i0, here[1] - self.j0, heading]
        if self._searched is None or self._searched[0] != start:  # one search serves several goal masks
            free = np.repeat(self.free[..., None], 4, axis=2)
            src, dst = [], []
            for turn in (1, 3):  # right, left
                src.append(node[free])
                dst.append(np.roll(node, -turn, axis=2)[free])
            for h, (dx, dz) in enumerate(_AHEAD):
                (fi, ti), (fj, tj) = _shift(ni, dx), _shift(nj, dz)
                ok = self.free[fi, fj] & self.free[ti, tj]
                src.append(node[fi, fj, h][ok])
                dst.append(node[ti, tj, h][ok])
            src_all, dst_all = np.concatenate(src), np.concatenate(dst)
            graph = csr_matrix((np.ones(len(src_all)), (src_all, dst_all)), shape=(node.size, node.size))
            self._searched = (start, *dijkstra(graph, indices=start, unweighted=True, return_predecessors=True))
        _, distance, predecessor = self._searched
        goal_nodes = node[goals]
        reachable = goal_nodes[np.isfinite(distance[goal_nodes])]
        if len(reachable) == 0:
            return None
        current = int(reachable[np.argmin(distance[reachable])])
        chain = [current]
        while current != start:
            current = int(predecessor[current])
            chain.append(current)
        return [self._pose(n) for n in reversed(chain)]

    def _pose(self, n: int) -> tuple[int, int, int]:
        i, rest = divmod(n, self.shape[1] * 4)
        j, h = divmod(rest, 4)
        return i + self.i0, j + self.j0, h
