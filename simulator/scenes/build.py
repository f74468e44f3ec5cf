"""Converter: shared floor-plan data -> the simulator's compact package data.

Usage: ``python -m simulator.scenes.build DATA_DIR [--out OUT_DIR]`` where DATA_DIR holds
``floorplans.json.gz`` and ``ai2thor_object_types.json`` (see shared/data/README.md). Writes
``object_types.json`` and ``scenes.json.gz`` into OUT_DIR (default: ``simulator/data``).
Deterministic: sorted keys, rounded floats and a fixed gzip header, so rebuilding from the
same inputs gives identical bytes. The geometry rules live in ``simulator.scenes.layout``.
"""

from __future__ import annotations

import argparse
import gzip
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from simulator.scenes import layout, type_facts

PACKAGE_DATA = Path(__file__).resolve().parent.parent / "data"
ROOM_TYPES = ((1, 30, "kitchen"), (201, 230, "living_room"), (301, 330, "bedroom"),
              (401, 430, "bathroom"))


def room_type(number: int) -> str:
    for lo, hi, name in ROOM_TYPES:
        if lo <= number <= hi:
            return name
    raise ValueError(f"FloorPlan{number} is not an iTHOR floor plan")


def _props(raw: list[str]) -> list[str]:
    # "Receptacle (some instances)" counts as receptacle.
    return sorted({p.split(" (")[0].lower() for p in raw})


def build_types(doc: dict[str, list[str]], meta: dict[str, Any]) -> dict[str, Any]:
    raw = {**doc, **type_facts.EXTRA_TYPES}
    affordances = meta["pickupable_properties"]
    calibration = PACKAGE_DATA / "calibration.json"
    calibrated = json.loads(calibration.read_text())["types"] if calibration.is_file() else {}
    types: dict[str, Any] = {}
    for name in sorted(raw):
        props = _props(raw[name])
        default = (type_facts.DEFAULT_PICKUPABLE if "pickupable" in props
                   else type_facts.DEFAULT_FIXED)
        size = type_facts.SIZES.get(name, default)
        if "pickupable" in props and name in calibrated:
            size = tuple(calibrated[name]["size"])  # fitted to AI2-THOR's masks (docs/calibration.md)
        types[name] = {
            "properties": props,
            "size": list(size),
            "alfred_affordances": sorted(affordances.get(name, [])),
        }
    alfred = {(r, o) for r, o in meta["can_contain"]}
    pickupable = {n for n, t in types.items() if "pickupable" in t["properties"]}
    pairs = type_facts.extra_pairs(alfred, pickupable)
    contains: dict[str, list[str]] = {}
    for rec, obj in sorted(pairs):
        contains.setdefault(rec, []).append(obj)
    return {"types": types, "can_contain": contains, "source": [
        "ai2thor_object_types.json (AI2-THOR type documentation, via sled-group/DANLI, MIT)",
        "floorplans.json.gz meta (ALFRED can_contain / pickupable_properties, MIT)",
        "simulator/scenes/type_facts.py (sizes, extra containment rules)",
        "simulator/data/calibration.json (pickupable sizes fitted to AI2-THOR's masks)"]}


@lru_cache(maxsize=1)
def _faucet_rules() -> dict[str, Any]:
    """The faucet rules fitted to AI2-THOR's faucets (calibration.json ``faucets``), if any."""
    calibration = PACKAGE_DATA / "calibration.json"
    return json.loads(calibration.read_text()).get("faucets", {}) if calibration.is_file() else {}


def _r(v: float) -> float:
    return round(float(v), 4)


def _cell(x: float, z: float) -> tuple[int, int]:
    return (round(x / layout.GRID), round(z / layout.GRID))


def build_scene(name: str, fp: dict[str, Any], types: dict[str, Any]) -> dict[str, Any]:
    number = int(name[len("FloorPlan"):])
    reachable = sorted({_cell(x, z) for x, z in fp["reachable"]})
    scene: dict[str, Any] = {
        "name": name, "number": number, "room_type": room_type(number),
        "object_types": sorted(set(fp["object_types"])),
        "reachable": [list(c) for c in reachable],
        "bounds": [_r(b) for b in layout.room_bounds(reachable)],
        "openable_poses": {k: [_r(v[0]), _r(v[1]), int(v[2]), int(v[3])]
                           for k, v in sorted(fp["openable_poses"].items())},
        "supported": fp["receptacles"] is not None and fp["static_objects"] is not None,
    }
    if not scene["supported"]:
        return scene
    fixed: dict[str, Any] = {}
    blockers, walls = [], []
    for group, is_recep in (("receptacles", True), ("static_objects", False)):
        for oid, obj in sorted(fp[group].items()):
            otype = obj["type"]
            pose = obj.get("interaction_pose")
            size = layout.oriented_size(tuple(types[otype]["size"]), pose[2] if pose else None)
            pos = tuple(_r(v) for v in layout.box_center(otype, obj["position"], size))
            fixed[oid] = {
                "type": otype, "position": list(pos), "size": [_r(s) for s in size],
                "interaction_pose": ([_r(pose[0]), _r(pose[1]), int(pose[2]), int(pose[3])]
                                     if pose else None),
                "receptacle": is_recep,
            }
            if layout.blocks_floor(otype, pos, size):
                blockers.append(layout.footprint(pos, size))
            if layout.on_wall(otype, pos, size):
                walls.append((pos[0], pos[2]))
    bounds = layout.room_bounds(reachable, walls)
    fixed.update(layout.faucets_for_basins(fixed, set(fp["object_types"]), bounds, _faucet_rules()))
    standing = [(i * layout.GRID, j * layout.GRID) for i, j in reachable]
    blockers = [layout.clear_of(rect, standing) for rect in blockers]
    navigable = layout.grow_navigable(reachable, bounds, blockers)

    def where(*kinds: str) -> dict[str, tuple[float, float, float]]:
        return {k: tuple(v["position"]) for k, v in fixed.items() if v["type"] in kinds}

    controls = {
        **layout.pair_controls(where("StoveKnob"), where("StoveBurner")),
        **layout.nearest(where("Faucet"), where("SinkBasin", "BathtubBasin")),
        **{k: () for k in where("LightSwitch")},
    }
    scene.update(
        fixed_objects=fixed, bounds=[_r(b) for b in bounds],
        navigable=[list(c) for c in sorted(navigable)],
        controls={k: list(v) for k, v in sorted(controls.items())},
    )
    return scene


def _dump(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode("utf-8")


def build(data_dir: Path, out_dir: Path = PACKAGE_DATA) -> list[Path]:
    """Read the shared data and write the package data files; returns their paths."""
    doc = json.loads((data_dir / "ai2thor_object_types.json").read_text(encoding="utf-8"))
    with gzip.open(data_dir / "floorplans.json.gz", "rt", encoding="utf-8") as fh:
        plans = json.load(fh)
    types = build_types(doc["types"], plans["meta"])
    scenes = {name: build_scene(name, fp, types["types"])
              for name, fp in sorted(plans["floorplans"].items())}
    out_dir.mkdir(parents=True, exist_ok=True)
    types_path = out_dir / "object_types.json"
    types_path.write_text(json.dumps(types, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    scenes_path = out_dir / "scenes.json.gz"
    scenes_path.write_bytes(gzip.compress(_dump({"scenes": scenes}), compresslevel=9, mtime=0))
    return [types_path, scenes_path]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", type=Path, help="folder with floorplans.json.gz etc.")
    parser.add_argument("--out", type=Path, default=PACKAGE_DATA, help="output folder")
    args = parser.parse_args(argv)
    for path in build(args.data_dir, args.out):
        print(path)


if __name__ == "__main__":
    main()
