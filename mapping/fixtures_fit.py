"""Fit the offsets of ``mapping.fixtures`` (where a faucet stands behind its sink basin)
from ALFRED train data: ``python -m mapping.fixtures_fit [DATA_DIR]`` prints them.

Offline, like ``mapping.prior_build``: the Follower's modules never import this file. Pairs
are the faucets ALFRED's experts turned on and the basins they put into, in clean
trajectories of our train split (the dev floor plans held out); positions come from the
recorded object ids (``Type|x|y|z``), "back" is measured away from the basin's nearest
reachable agent position.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import statistics
from pathlib import Path

from simulator.episodes.alfred import dev_split

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def faucet_offsets(data: Path = DATA) -> dict[str, float]:
    """Median (back, rise) of the faucets ALFRED's experts turned on behind the basins they
    put into, over clean trajectories on train floor plans; "back" is measured away from the
    basin's nearest reachable position (where it is seen from)."""
    reachable = {k: v["reachable"] for k, v in json.load(gzip.open(data / "floorplans.json.gz"))["floorplans"].items()}
    pairs = set()
    with gzip.open(data / "alfred_train.jsonl.gz", "rt") as trajectories, \
            gzip.open(data / "alfred_train_masks.jsonl.gz", "rt") as masks:
        for t_line, m_line in zip(trajectories, masks, strict=True):
            trajectory, recorded = json.loads(t_line), json.loads(m_line)
            if trajectory["task_type"] != "pick_clean_then_place_in_recep" or dev_split(trajectory["floor_plan"]) != "train":
                continue
            ids = [(i["objectId"], i.get("receptacleObjectId") or "") for i in recorded["interactions"]]
            faucets = {o for o, _ in ids if o.startswith("Faucet|")}
            basins = {r for _, r in ids if r.endswith("|SinkBasin")}
            pairs |= {(trajectory["floor_plan"], f, b) for f in faucets for b in basins}
    backs, rises = [], []
    for floor_plan, faucet_id, basin_id in sorted(pairs):
        f, b = ([float(v) for v in i.split("|")[1:4]] for i in (faucet_id, basin_id))
        front = min(reachable[floor_plan], key=lambda p: math.hypot(p[0] - b[0], p[1] - b[2]))
        norm = math.hypot(front[0] - b[0], front[1] - b[2]) or 1.0
        backs.append(-((f[0] - b[0]) * (front[0] - b[0]) + (f[2] - b[2]) * (front[1] - b[2])) / norm)
        rises.append(f[1] - b[1])
    return {"pairs": len(pairs), "back": statistics.median(backs), "rise": statistics.median(rises)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", type=Path, default=DATA,
                        help="folder with floorplans.json.gz, alfred_train.jsonl.gz, alfred_train_masks.jsonl.gz")
    args = parser.parse_args(argv)
    print(json.dumps(faucet_offsets(args.data)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
