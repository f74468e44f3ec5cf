"""Why the recorded interaction point misses our target: a table of causes from a details file.

``nesy alfred check-masks ... --details FILE`` writes, per interaction, what our instance
buffer shows at AI2-THOR's recorded point (``at_point``), the target's parent receptacle and
whether an earlier action moved the target. This module sorts the point misses into causes::

    python -m simulator.calibration.misses DETAILS [--by-type]

Causes (first that applies): ``sliced piece`` (the target is a piece our slicing rule laid
out), ``moved by us`` (the target was put down by our simulator, or a put's receptacle
holds what we put there), ``target not drawn`` (split by what the point shows),
``receptacle in front`` (the target's own parent covers the point), ``content in front``
(an object lying in or on the target covers it: a put lands where the agent looks),
``background`` (floor, wall or nothing at the point: our target is drawn elsewhere),
``other object in front``.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

SLICED = ("Sliced", "EggCracked")


def _type(object_id: str | None) -> str | None:
    if object_id is None:
        return None
    last = object_id.split("|")[-1]
    return last.split("_")[0] if "Sliced" in last or "Cracked" in last else object_id.split("|")[0]


def cause(row: dict[str, Any]) -> str:
    """The cause of one point miss (see the module docstring)."""
    target, at = row["target_id"], row.get("at_point")
    at_type = _type(at)
    if any(s in row["target_type"] for s in SLICED):
        return "sliced piece"
    if row.get("moved"):
        return "moved by us"
    if not row["visible"]:
        if at is not None and at == row.get("parent"):
            return "not drawn: inside/under its receptacle"
        return "not drawn: " + ("background at point" if at is None else "other object at point")
    if at is not None and at == row.get("parent"):
        return "receptacle in front"
    if at is not None and at.startswith(target + "|"):
        return "content in front"
    if at is None:
        return "background at point"
    if row["action"] in ("PutObject", "CloseObject", "OpenObject") and at_type is not None and not _fixed_like(at):
        return "content in front"
    return "other object in front"


def _fixed_like(object_id: str) -> bool:
    from simulator.object_types import type_info

    try:
        return not type_info(_type(object_id) or "").pickupable
    except Exception:  # unknown type
        return True


def table(rows: list[dict[str, Any]], key=lambda r: cause(r)) -> list[tuple[str, int, float]]:
    misses = [r for r in rows if not r["point_hit"]]
    counts = Counter(key(r) for r in misses)
    return [(k, n, n / max(len(misses), 1)) for k, n in counts.most_common()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("details", type=Path)
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in args.details.open() if line.strip()]
    misses = sum(not r["point_hit"] for r in rows)
    print(f"{len(rows)} interactions, {misses} point misses, {sum(not r['visible'] for r in rows)} not drawn")
    print("\n| cause | misses | share |\n|---|---|---|")
    for k, n, share in table(rows):
        print(f"| {k} | {n} | {share:.3f} |")
    print("\n| action / target type / cause | misses | share |\n|---|---|---|")
    for k, n, share in table(rows, key=lambda r: f"{r['action']} / {r['target_type']} / {cause(r)}")[: args.top]:
        print(f"| {k} | {n} | {share:.3f} |")


if __name__ == "__main__":
    main()
