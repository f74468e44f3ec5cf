"""How wide our pieces are drawn where they are picked up, against AI2-THOR's: a table from
a details file.

``nesy alfred check-masks ... --details FILE`` writes, per interaction, our and AI2-THOR's
boxes of the target and its parent receptacle. This module groups the pickups of sliced
pieces by (piece type, parent type) and prints per group the median box width in pixels,
ours and AI2-THOR's, the mean IoU and the share of recorded points inside our mask::

    python -m simulator.calibration.widths DETAILS [--min N]

A piece drawn edge-on where AI2-THOR drew it face-on is a few pixels wide against twenty or
thirty (docs/calibration.md, "A put turns the thing to its receptacle").
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class WidthRow:
    piece: str
    parent: str
    pickups: int
    ours: float  # median box width, pixels (0 where our piece is not drawn)
    theirs: float
    iou: float
    point_hit: float


def parent_type(parent: str | None) -> str:
    """The type of a parent objectId (a sink's basin is ``SinkBasin``); ``none`` for none."""
    if not parent:
        return "none"
    last = parent.split("|")[-1]
    return last if last.endswith("Basin") else parent.split("|")[0]


def _width(box: list[int] | None) -> int:
    return box[2] - box[0] if box else 0


def width_rows(details: Iterable[dict[str, Any]], minimum: int = 5) -> list[WidthRow]:
    """One row per (piece type, parent type) with at least ``minimum`` pickups, most first."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in details:
        if row["action"] == "PickupObject" and "Sliced" in row["target_type"]:
            groups[(row["target_type"], parent_type(row.get("parent")))].append(row)
    rows = [
        WidthRow(piece, parent, len(group),
                 statistics.median(_width(r["ours_bbox"]) for r in group),
                 statistics.median(_width(r["theirs_bbox"]) for r in group),
                 round(statistics.mean(r["iou"] for r in group), 3),
                 round(statistics.mean(bool(r["point_hit"]) for r in group), 3))
        for (piece, parent), group in groups.items() if len(group) >= minimum
    ]
    return sorted(rows, key=lambda r: (-r.pickups, r.piece, r.parent))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m simulator.calibration.widths", description=__doc__.split("\n\n")[0])
    parser.add_argument("details", type=Path, help="a check-masks --details file (JSON lines)")
    parser.add_argument("--min", type=int, default=5, dest="minimum", help="smallest group shown (default 5)")
    args = parser.parse_args(argv)
    with args.details.open() as lines:
        rows = width_rows((json.loads(line) for line in lines), args.minimum)
    print("| piece | parent | pickups | width ours / AI2-THOR's (px) | IoU | point in our mask |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r.piece} | {r.parent} | {r.pickups} | {r.ours:g} / {r.theirs:g} | {r.iou} | {r.point_hit} |")


if __name__ == "__main__":
    main()
