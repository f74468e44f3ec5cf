"""Measure the navigable grid against ALFRED's expert navigation (a check, not a fit).

Usage: ``python -m simulator.scenes.check_navigation ALFRED_JSONL_GZ`` replays every
trajectory's MoveAhead/RotateLeft/RotateRight from its ``init_action`` (rotation 0 faces +z,
90 faces +x; RotateLeft subtracts 90; MoveAhead moves 0.25 m) and prints one JSON object:
the fraction of MoveAhead steps that land on navigable cells and on recorded reachable
cells, over supported floor plans (and, for the record, the unsupported ones' recorded
cells), plus the misses that remain. Nothing here feeds back into the scene data.
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from simulator.scenes import UnsupportedSceneError, load_scene, to_cell

HEADINGS = {0: (0, 1), 90: (1, 0), 180: (0, -1), 270: (-1, 0)}

Move = tuple[str, tuple[int, int], tuple[int, int]]  # floor plan, from cell, to cell


def expert_moves(path: Path) -> Iterator[tuple[str, tuple[int, int], list[Move]]]:
    """Yield (floor plan, start cell, MoveAhead steps) for every trajectory in the file."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            traj = json.loads(line)
            init = traj["init_action"]
            cell = to_cell(float(init["x"]), float(init["z"]))
            start, rot, moves = cell, int(round(float(init["rotation"]))) % 360, []
            for step in traj["expert_low_actions"]:
                action = step["action"]
                if action == "RotateLeft":
                    rot = (rot - 90) % 360
                elif action == "RotateRight":
                    rot = (rot + 90) % 360
                elif action == "MoveAhead":
                    dx, dz = HEADINGS[rot]
                    nxt = (cell[0] + dx, cell[1] + dz)
                    moves.append((traj["floor_plan"], cell, nxt))
                    cell = nxt
            yield traj["floor_plan"], start, moves


def measure(path: Path, max_listed: int = 50) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    misses: Counter[tuple[str, tuple[int, int]]] = Counter()
    for plan, start, moves in expert_moves(path):
        try:
            scene = load_scene(plan)
        except UnsupportedSceneError:
            counts["unsupported_moves"] += len(moves)
            continue
        counts["trajectories"] += 1
        counts["starts_on_navigable"] += start in scene.navigable
        counts["starts_on_recorded"] += start in scene.recorded_reachable
        for _, _, to in moves:
            counts["moves"] += 1
            counts["on_recorded"] += to in scene.recorded_reachable
            if to in scene.navigable:
                counts["on_navigable"] += 1
            else:
                misses[(plan, to)] += 1
    n = max(counts["moves"], 1)
    t = max(counts["trajectories"], 1)
    return {
        "trajectories": counts["trajectories"],
        "move_ahead_steps": counts["moves"],
        "on_navigable_rate": counts["on_navigable"] / n,
        "on_recorded_reachable_rate": counts["on_recorded"] / n,
        "starts_on_navigable_rate": counts["starts_on_navigable"] / t,
        "starts_on_recorded_reachable_rate": counts["starts_on_recorded"] / t,
        "steps_off_navigable": n - counts["on_navigable"] if counts["moves"] else 0,
        "cells_off_navigable": len(misses),
        "misses": [{"floor_plan": p, "cell": list(c), "steps": k}
                   for (p, c), k in sorted(misses.items())[:max_listed]],
        "unsupported_floor_plan_steps": counts["unsupported_moves"],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("alfred", type=Path, help="alfred_train.jsonl.gz")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.alfred), sort_keys=True))


if __name__ == "__main__":
    main()
