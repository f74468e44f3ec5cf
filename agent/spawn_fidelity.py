"""Where our ``random_start`` puts pickupable objects, against where AI2-THOR's own spawner
put them in ALFRED's train start states (an offline check of the simulator's fidelity; it
lives in ``agent`` because it reads both the simulator and the mapping package's table).

ALFRED's side is ``mapping/data/search_prior.json`` (object type -> receptacle type counts
over the start states of our ALFRED train split, ``python -m mapping.prior_build``); ours
counts the placements of ``random_start`` on every train floor plan for ``--seeds`` seeds.
Reported: the share of placed objects that start shut in a container (the receptacles the
searcher opens) on each side, and the object types whose shares differ most. TATC episodes
and ``nesy bench nav`` both start from ``random_start``, so this is how far their worlds
are from AI2-THOR's in where things are hidden.

    python -m agent.spawn_fidelity [--seeds 3] [--top 10] [--json]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict

from mapping.exploration import CONTAINERS
from mapping.prior_build import count_world
from mapping.search_prior import PRIOR_PATH
from simulator.episodes.splits import split_floor_plans
from simulator.spawn import random_start
from simulator.start_state import build_world


def ours(seeds: int) -> dict[str, Counter]:
    counts: dict[str, Counter] = defaultdict(Counter)
    for plan in split_floor_plans("train"):
        for seed in range(seeds):
            count_world(build_world(random_start(plan, seed)), counts)
    return counts


def contained(row: dict[str, int]) -> tuple[int, int]:
    """(placements shut in a container, all placements) of one object type's row."""
    return sum(n for kind, n in row.items() if kind in CONTAINERS), sum(row.values())


def compare(seeds: int, top: int) -> dict:
    alfred = json.loads(PRIOR_PATH.read_text())["counts"]
    sim = ours(seeds)
    totals = {name: contained(sum((Counter(row) for row in table.values()), Counter()))
              for name, table in (("alfred", alfred), ("random_start", sim))}
    rows = []
    for kind in sorted(set(sim) & set(alfred)):
        (a_in, a_all), (s_in, s_all) = contained(alfred[kind]), contained(sim[kind])
        if a_all and s_all:
            rows.append({"type": kind, "random_start": round(s_in / s_all, 3), "alfred": round(a_in / a_all, 3)})
    rows.sort(key=lambda r: -abs(r["random_start"] - r["alfred"]))
    return {
        "seeds": seeds,
        "alfred_in_containers": round(totals["alfred"][0] / totals["alfred"][1], 4),
        "random_start_in_containers": round(totals["random_start"][0] / totals["random_start"][1], 4),
        "placements": {"alfred": totals["alfred"][1], "random_start": totals["random_start"][1]},
        "largest_differences": rows[:top],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="random_start seeds per train floor plan")
    parser.add_argument("--top", type=int, default=10, help="object types to list")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = compare(args.seeds, args.top)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"shut in a container: random_start {result['random_start_in_containers']:.1%}, "
              f"AI2-THOR (ALFRED train) {result['alfred_in_containers']:.1%}")
        for row in result["largest_differences"]:
            print(f"  {row['type']}: {row['random_start']:.0%} vs {row['alfred']:.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
