"""Which faucet feeds which basin, as the planner believes: the basin nearest a faucet
(AI2-THOR's faucets sit over their sinks). Used by the symbolic state (``controls``) and by
``History`` (a running tap rinses and fills what lies in the basin it feeds)."""

from __future__ import annotations

import math

from contracts.belief import ObjectInstance
from planner import knowledge


def fed_basins(faucet: ObjectInstance, memory: dict[str, ObjectInstance]) -> list[ObjectInstance]:
    """The basin a faucet feeds: the nearest one (horizontally)."""
    basins = [i for i in memory.values() if i.object_type in knowledge.BASINS]
    return sorted(basins, key=lambda b: math.dist(b.position[::2], faucet.position[::2]))[:1]


def feeding_faucets(basin: ObjectInstance, memory: dict[str, ObjectInstance]) -> list[ObjectInstance]:
    faucets = [i for i in memory.values() if i.object_type == "Faucet"]
    return [f for f in faucets if basin in fed_basins(f, memory)]
