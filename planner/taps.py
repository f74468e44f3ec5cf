"""Which faucet feeds which basin, as the planner believes: the basin nearest a faucet, within
``FEEDS_WITHIN`` (AI2-THOR's faucets sit over their sinks). Used by the symbolic state
(``controls``) and by ``History`` (a running tap rinses and fills what lies in the basin it
feeds)."""

from __future__ import annotations

import math

from contracts.belief import ObjectInstance
from planner import knowledge

# metres (horizontal) from a faucet to the basin it feeds, at most: in every iTHOR floor plan a
# faucet's nearest basin lies within 0.54 m of it (the middle of a bathtub), so a "faucet" farther
# from every basin is a phantom. FloorPlan10's toaster, taken for a faucet 2 m from the sink,
# fed it: its click switched the toaster on, and a bowl waited in the dry sink (TATC 0147).
FEEDS_WITHIN = 1.0


def fed_basins(faucet: ObjectInstance, memory: dict[str, ObjectInstance]) -> list[ObjectInstance]:
    """The basin a faucet feeds: the nearest one (horizontally), if within ``FEEDS_WITHIN``."""
    basins = [i for i in memory.values() if i.object_type in knowledge.BASINS
              and math.dist(i.position[::2], faucet.position[::2]) <= FEEDS_WITHIN]
    return sorted(basins, key=lambda b: math.dist(b.position[::2], faucet.position[::2]))[:1]


def feeding_faucets(basin: ObjectInstance, memory: dict[str, ObjectInstance]) -> list[ObjectInstance]:
    faucets = [i for i in memory.values() if i.object_type == "Faucet"]
    return [f for f in faucets if basin in fed_basins(f, memory)]
