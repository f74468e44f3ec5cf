"""Fixtures the detector misses, believed from what they are fixed to: a faucet behind its
sink basin.

Mask R-CNN hardly ever finds a faucet (mask AP 0.02 on valid_unseen frames; a thin chrome
tap against the wall), yet every TEACh and ALFRED task that cleans or fills needs one. Every
kitchen faucet stands at the back of a sink basin, so for each basin seen with no faucet
seen near it the memory believes one ``FAUCET_BACK`` metres behind the basin's centre and
``FAUCET_RISE`` above it. "Behind" is away from where the Follower stood when it saw the
basin nearest (basins are seen from the front), snapped to the nearer axis of the map
(counters run along walls). The offsets are the medians over the 52 faucet / basin pairs
that ALFRED's experts used in clean tasks on train floor plans (their object ids carry
positions; ``python -m mapping.fixtures_fit`` recomputes them, and a slow test checks
these constants).
The inferred faucet is marked ``states["inferred"]``: a skill clicks inside its projected
box, since no detection shows it; it counts as in view whenever its basin is. A hint-only
faucet ("the faucet is near the garbage can") is moved behind the basin: a faucet is never
anywhere else.
"""

from __future__ import annotations

import math

from contracts.belief import ObjectInstance, ObjectMemory
from contracts.geometry import Pose

FAUCET_BACK = 0.21  # metres behind the basin's centre, away from where it is seen from
FAUCET_RISE = 0.125  # metres above the basin's centre
FAUCET_EXTENT = (0.2, 0.2, 0.2)  # metres: the region a click looks for it in
BASIN_TYPES = ("SinkBasin", "Sink")
FAUCET_NEAR = 1.0  # metres: a faucet seen this near a basin is its own (no inference)


class FaucetBeliefs:
    """Per basin: the faucet believed behind it, from the nearest view of the basin so far."""

    def __init__(self) -> None:
        self.views: dict[str, float] = {}  # basin key -> distance of the view its faucet was placed from

    def update(self, memory: ObjectMemory, in_view: dict[str, float], pose: Pose) -> None:
        seen = [f for f in memory.of_type("Faucet") if f.times_seen > 0]
        for basin in [b for t in BASIN_TYPES for b in memory.of_type(t) if b.times_seen > 0]:
            if any(_horizontal(f.position, basin.position) <= FAUCET_NEAR for f in seen):
                continue
            faucet = self._faucet_of(memory, basin)
            distance = in_view.get(basin.key)
            if distance is not None and distance < self.views.get(basin.key, math.inf):
                self.views[basin.key] = distance
                faucet.states["behind"] = _back(pose, basin.position)
            back = faucet.states.get("behind")
            if back is None:
                continue
            x, y, z = basin.position
            faucet.position = (x + back[0] * FAUCET_BACK, y + FAUCET_RISE, z + back[1] * FAUCET_BACK)
            if distance is not None:
                in_view[faucet.key] = distance

    @staticmethod
    def _faucet_of(memory: ObjectMemory, basin: ObjectInstance) -> ObjectInstance:
        """The faucet believed for ``basin``: the one inferred for it before, else a faucet
        never seen (a hint's), else a new one."""
        unseen = [f for f in memory.of_type("Faucet") if f.times_seen == 0]
        mine = [f for f in unseen if f.states.get("fixed_to") == basin.key]
        free = [f for f in unseen if "fixed_to" not in f.states]
        faucet = (mine or free or [None])[0]
        if faucet is None:
            faucet = memory.add("Faucet", basin.position, extent=FAUCET_EXTENT, confidence=0.5)
        faucet.states.update(fixed_to=basin.key, inferred=True)
        faucet.extent, faucet.container = FAUCET_EXTENT, None
        return faucet


def _back(pose: Pose, basin: tuple[float, float, float]) -> tuple[float, float]:
    """The unit axis direction (x, z) from the viewer to the basin, the nearer of the map's axes."""
    dx, dz = basin[0] - pose.x, basin[2] - pose.z
    if abs(dx) >= abs(dz):
        return (math.copysign(1.0, dx), 0.0)
    return (0.0, math.copysign(1.0, dz))


def _horizontal(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return math.hypot(a[0] - b[0], a[2] - b[2])
