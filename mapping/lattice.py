"""``Lattice``: the Follower's pose graph over a grid map, and shortest action sequences on it.

The Follower moves on AI2-THOR's lattice (0.25 m forward moves, 90-degree turns). A lattice
point is **hard-blocked** when it lies off the map or a forward move into it failed; it is
**soft-blocked** when a map obstacle cell lies within ``clearance`` of it (an integral
image over the grid). The map's obstacles are evidence, not truth (a chair seat or a bed
edge seen from afar blocks cells the Follower can walk through), so a soft-blocked point
costs ``SOFT_COST`` extra steps instead of being cut out: a route over free points wins
unless it is more than that many steps longer, and then the route across the soft points
is tried (on train floor plans 8 steps beat 1000, i.e. never unless no free route: the map
blocks more than the simulator does); a failed move there hard-blocks it, a move that
works makes it visited and free for good.
Points the Follower has stood on are free. Unknown cells are optimistic (free). With
``soft=False`` map obstacles block as they are.

Only a window of the map is built (``window``: the explored area, the Follower and the
goal, plus a margin), so the graph stays small on a large map. Shortest paths come from
``scipy.sparse.csgraph.dijkstra`` over (point, heading) nodes; a goal is an array of extra
costs per pose (``inf``: not a goal; e.g. the looks still needed there).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from contracts.belief import Cell, GridMap

STEP = 0.25  # metres per forward move (AI2-THOR's gridSize)
HEADINGS = (0.0, 90.0, 180.0, 270.0)
AHEAD = ((0, 1), (1, 0), (0, -1), (-1, 0))  # (dx, dz) lattice steps for headings 0, 90, 180, 270
SOFT_COST = 8.0  # extra cost of entering a point that the map (not a failed move) blocks (a detour of more steps tries it)

Point = tuple[int, int]
LatticePose = tuple[int, int, int]  # i, j, heading index


def _shift(n: int, d: int) -> tuple[slice, slice]:
    """Slices of the points a move by ``d`` starts from and lands on, along an axis of ``n``."""
    return slice(max(-d, 0), n - max(d, 0)), slice(max(d, 0), n + min(d, 0))


class Lattice:
    """Passable points of the lattice over (a window of) a grid map, and the pose graph."""

    def __init__(self, grid: GridMap, clearance: float, here: Point, blocked: Iterable[Point] = (),
                 visited: Iterable[Point] = (), window: tuple[float, float, float, float] | None = None,
                 soft: bool = True) -> None:
        (x0, z0), res = grid.origin, grid.resolution
        rows, cols = grid.shape
        xmin, xmax, zmin, zmax = window or (x0, x0 + cols * res, z0, z0 + rows * res)
        xmin, zmin = max(xmin, x0), max(zmin, z0)
        xmax, zmax = min(xmax, x0 + cols * res), min(zmax, z0 + rows * res)
        self.i0, self.j0 = math.ceil(xmin / STEP), math.ceil(zmin / STEP)
        ni, nj = math.floor(xmax / STEP) - self.i0 + 1, math.floor(zmax / STEP) - self.j0 + 1
        self.shape = (max(ni, 1), max(nj, 1))
        self.xs = (np.arange(self.shape[0]) + self.i0) * STEP
        self.zs = (np.arange(self.shape[1]) + self.j0) * STEP
        cols_at = np.floor((self.xs - x0) / res).astype(int)
        rows_at = np.floor((self.zs - z0) / res).astype(int)
        inside = (cols_at[:, None] >= 0) & (cols_at[:, None] < cols) & (rows_at[None, :] >= 0) & (rows_at[None, :] < rows)
        # obstacle cells within ``clearance`` of each point: an integral image of the window
        radius = int(math.ceil(clearance / res)) if clearance > 0 else 0
        ra, rb = max(int(rows_at.min()) - radius, 0), min(int(rows_at.max()) + radius + 1, rows)
        ca, cb = max(int(cols_at.min()) - radius, 0), min(int(cols_at.max()) + radius + 1, cols)
        table = np.zeros((max(rb - ra, 0) + 1, max(cb - ca, 0) + 1), dtype=np.int32)
        table[1:, 1:] = np.cumsum(np.cumsum(grid.occupancy[ra:rb, ca:cb] == Cell.OBSTACLE, axis=0), axis=1)
        r0, r1 = np.clip(rows_at - radius - ra, 0, rb - ra), np.clip(rows_at + radius + 1 - ra, 0, rb - ra)
        c0, c1 = np.clip(cols_at - radius - ca, 0, cb - ca), np.clip(cols_at + radius + 1 - ca, 0, cb - ca)
        hits = table[np.ix_(r1, c1)] - table[np.ix_(r0, c1)] - table[np.ix_(r1, c0)] + table[np.ix_(r0, c0)]
        self.open = inside.copy()  # not hard-blocked
        self.free = inside & (hits.T == 0)  # passable without crossing map obstacles
        for point in visited:
            if self.inside(point):
                self.free[point[0] - self.i0, point[1] - self.j0] = True
        for point in blocked:
            if self.inside(point):
                self.open[point[0] - self.i0, point[1] - self.j0] = False
                self.free[point[0] - self.i0, point[1] - self.j0] = False
        if not soft:  # map obstacles are taken as they are
            self.open &= self.free
        if self.inside(here):  # where the Follower stands is passable
            self.open[here[0] - self.i0, here[1] - self.j0] = True
            self.free[here[0] - self.i0, here[1] - self.j0] = True

    def inside(self, point: Point) -> bool:
        i, j = point[0] - self.i0, point[1] - self.j0
        return 0 <= i < self.shape[0] and 0 <= j < self.shape[1]

    def near(self, point: tuple[float, float]) -> np.ndarray:
        """Goal costs: 0 at the free lattice point nearest ``point`` (any heading), else inf."""
        px, pz = np.meshgrid(self.xs, self.zs, indexing="ij")
        distance = np.where(self.free, np.hypot(px - point[0], pz - point[1]), np.inf)
        goals = np.full((*self.shape, 4), np.inf)
        if np.isfinite(distance).any():
            goals[np.unravel_index(int(np.argmin(distance)), self.shape)] = 0.0
        return goals

    def costs(self, here: Point, heading: int) -> tuple[np.ndarray, np.ndarray] | None:
        """Action costs from (here, heading) to every pose (flat, by node) and the
        predecessors (one Dijkstra), or None when ``here`` is off the window."""
        if not self.inside(here):
            return None
        ni, nj = self.shape
        node = np.arange(ni * nj * 4).reshape(ni, nj, 4)
        start = int(node[here[0] - self.i0, here[1] - self.j0, heading])
        open4 = np.repeat(self.open[..., None], 4, axis=2)
        src, dst, cost = [], [], []
        for turn in (1, 3):  # right, left
            src.append(node[open4])
            dst.append(np.roll(node, -turn, axis=2)[open4])
            cost.append(np.ones(int(open4.sum())))
        entry = np.where(self.free, 1.0, 1.0 + SOFT_COST)
        for h, (dx, dz) in enumerate(AHEAD):
            (fi, ti), (fj, tj) = _shift(ni, dx), _shift(nj, dz)
            ok = self.open[fi, fj] & self.open[ti, tj]
            src.append(node[fi, fj, h][ok])
            dst.append(node[ti, tj, h][ok])
            cost.append(entry[ti, tj][ok])
        graph = csr_matrix((np.concatenate(cost), (np.concatenate(src), np.concatenate(dst))),
                           shape=(node.size, node.size))
        return dijkstra(graph, indices=start, return_predecessors=True)

    def path(self, here: Point, heading: int, goals: np.ndarray) -> tuple[list[LatticePose], float] | None:
        """The cheapest pose sequence from (here, heading) to a goal pose (path cost plus the
        goal's own cost) and its total cost, or None."""
        found = self.costs(here, heading)
        if found is None:
            return None
        distance, predecessor = found
        start = ((here[0] - self.i0) * self.shape[1] + (here[1] - self.j0)) * 4 + heading
        total = distance + goals.ravel()
        best = int(np.argmin(total))
        if not np.isfinite(total[best]):
            return None
        chain = [best]
        while chain[-1] != start:
            chain.append(int(predecessor[chain[-1]]))
        return [self.pose(n) for n in reversed(chain)], float(total[best])

    def pose(self, n: int) -> LatticePose:
        i, rest = divmod(n, self.shape[1] * 4)
        j, h = divmod(rest, 4)
        return i + self.i0, j + self.j0, h
