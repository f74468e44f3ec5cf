"""Scene geometry rules: object footprints, room extent, navigable grid, switch controls.

Owns the rules that turn a floor plan's recorded facts (reachable cells, fixed objects at
their positions) into the geometry the simulator uses; ``build`` applies them once and bakes
the result into the package data. The rules (documented in docs/scenes.md):

- footprint: a fixed object's axis-aligned x/z extent (type size, depth turned to face the
  agent's recorded interaction pose), shrunk on every side by ``FOOTPRINT_SLACK``;
- only floor-standing objects block the floor (furniture, counters, appliances on the floor;
  cabinets/drawers/shelves/plants only if their bottom is below ``HIGH_BOTTOM``);
- room extent: the recorded cells' bounding box grown by ``ROOM_MARGIN``, and out to any
  wall-mounted object (windows, paintings, switches, mirrors, upper cabinets);
- navigable: the recorded cells, plus cells grown from them (4-neighbour flood fill) whose
  centre is at least ``AGENT_RADIUS`` inside the room extent and outside every footprint;
  holes enclosed by recorded cells (islands, tables) are entered at most
  ``ENCLOSED_RINGS`` cells deep.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from simulator.objects import format_object_id

GRID = 0.25
AGENT_RADIUS = 0.2  # AI2-THOR's agent capsule radius
FOOTPRINT_SLACK = 0.2  # object extents are approximate: forgive the agent's radius
ROOM_MARGIN = 0.5  # recorded cells stop ~0.5-0.7 m short of walls (measured: docs/scenes.md)
HIGH_BOTTOM = 1.0  # objects whose bottom is above this do not block the floor
MAX_RINGS: int | None = None  # None: flood fill; k: grow at most k cells from a recorded one
ENCLOSED_RINGS = 1  # growth into holes enclosed by recorded cells stops after this many

Cell = tuple[int, int]
Rect = tuple[float, float, float, float]  # xmin, xmax, zmin, zmax

FLOOR_STANDING = frozenset({
    "ArmChair", "Bathtub", "Bed", "Cart", "Chair", "CoffeeTable", "CounterTop", "Desk",
    "DiningTable", "DogBed", "Dresser", "FloorLamp", "Footstool", "Fridge", "GarbageCan",
    "LaundryHamper", "Ottoman", "ShelvingUnit", "SideTable", "Sink", "Sofa", "Stool",
    "Toilet", "TVStand", "VacuumCleaner",
})
MAYBE_HIGH = frozenset({"Cabinet", "Drawer", "Shelf", "HousePlant", "Safe"})
WALL_MOUNTED = frozenset({
    "Window", "Painting", "Poster", "Mirror", "LightSwitch", "Blinds", "Curtains",
})


# Types whose recorded position (AI2-THOR's transform pivot, also encoded in the objectId)
# is at the bottom of the object rather than at its centre.
BOTTOM_PIVOT = FLOOR_STANDING | frozenset({
    "CoffeeMachine", "Microwave", "Toaster", "DeskLamp", "HousePlant", "Television", "Safe",
})


# Types whose pivot is at their rim: a sink shares its pivot with its basin (the basin's
# objectId is the sink's plus '|SinkBasin'), and the basins' rims fitted to AI2-THOR's masks
# lie in their pivots' plane (docs/calibration.md), so a sink hangs below its pivot, unless
# that would put it under the floor (a pedestal sink's pivot is its foot).
RIM_PIVOT = frozenset({"Sink"})

# Chairs and stools recorded with their pivot at the seat (20 of them, 0.43-0.95 m up; the
# rest at the floor) still stand on the floor: drawn from the floor up, they no longer hang
# at head height in front of the tables they stand at (FloorPlan11's hid its dining table
# from every put AI2-THOR's experts made on it). No view of a chair was recorded, so its
# height stays the type's.
SEATS = frozenset({"Chair", "Stool"})
SEAT_PIVOT = 0.3  # metres: a seat's pivot this high is its seat, not its foot


def box_center(
    object_type: str, position: Iterable[float], size: tuple[float, float, float]
) -> tuple[float, float, float]:
    """The centre of an object's box from its recorded (pivot) position."""
    x, y, z = position
    if object_type in RIM_PIVOT and y >= size[1]:
        y -= size[1] / 2
    elif object_type in SEATS and y > SEAT_PIVOT:
        y = size[1] / 2
    elif object_type in BOTTOM_PIVOT:
        y += size[1] / 2
    return (x, y, z)


FAUCET_HEIGHT = 0.2  # above the basin's centre (basins without a fitted rule: bathtubs)


def faucets_for_basins(fixed: dict[str, dict], scene_types: set[str], bounds: Rect | None = None,
                       rules: dict[str, dict] | None = None) -> dict[str, dict]:
    """Faucets are not in the floor-plan data: add one by every basin.

    A basin type with a rule fitted to AI2-THOR's faucets (``rules``: calibration.json's
    ``faucets``, ``simulator.calibration.faucets``) gets its faucet's box from that rule;
    otherwise the faucet stands at the basin's back edge (the side away from the agent's
    recorded interaction pose), ``FAUCET_HEIGHT`` above its centre. Their ids are formatted
    from the box centres, so they differ from AI2-THOR's by some centimetres;
    ``simulator.targeting`` resolves a Faucet id to the nearest faucet.
    """
    if "Faucet" not in scene_types:
        return {}
    from simulator.calibration.faucets import back_direction, drawn_box, reference

    out = {}
    for oid, obj in sorted(fixed.items()):
        if obj["type"] not in ("SinkBasin", "BathtubBasin"):
            continue
        rule = (rules or {}).get(obj["type"])
        if rule is not None and bounds is not None:
            back = back_direction(obj, bounds, rule["back"])
            pivot = [float(v) for v in oid.split("|")[1:4]]
            centre, size = drawn_box(reference(pivot, rule["height"]), back, rule)
            pos = tuple(round(v, 2) for v in centre)
        else:
            x, y, z = obj["position"]
            rotation = obj["interaction_pose"][2] if obj["interaction_pose"] else 0
            dx, dz = round(math.sin(math.radians(rotation))), round(math.cos(math.radians(rotation)))
            depth = obj["size"][2] if dx == 0 else obj["size"][0]
            pos = (round(x + dx * depth / 2, 2), round(y + FAUCET_HEIGHT, 2), round(z + dz * depth / 2, 2))
            size = [0.1, 0.25, 0.1]
        faucet_id = format_object_id("Faucet", pos)
        out[faucet_id] = {
            "type": "Faucet", "position": list(pos), "size": list(size),
            "interaction_pose": obj["interaction_pose"], "receptacle": False,
        }
    return out


def oriented_size(
    size: tuple[float, float, float], rotation: int | None
) -> tuple[float, float, float]:
    """Turn a (width, height, depth) size so its depth lies along the agent's view axis.

    The type table gives depth along z (object facing an agent that looks along z). An
    object the agent interacts with while facing +x or -x (rotation 90 or 270) is turned.
    """
    if rotation is not None and int(rotation) % 180 == 90:
        return (size[2], size[1], size[0])
    return size


def blocks_floor(object_type: str, position: tuple[float, float, float],
                 size: tuple[float, float, float]) -> bool:
    """Whether the object stands on the floor (and so takes floor space from the agent)."""
    if object_type in FLOOR_STANDING:
        return True
    if object_type in MAYBE_HIGH:
        return position[1] - size[1] / 2 < HIGH_BOTTOM
    return False


def footprint(position: tuple[float, float, float], size: tuple[float, float, float],
              slack: float = FOOTPRINT_SLACK) -> Rect:
    """The object's x/z rectangle, shrunk by ``slack`` on each side (never below zero)."""
    hx = max(size[0] / 2 - slack, 0.0)
    hz = max(size[2] / 2 - slack, 0.0)
    return (position[0] - hx, position[0] + hx, position[2] - hz, position[2] + hz)


def clear_of(rect: Rect, points: Iterable[tuple[float, float]]) -> Rect:
    """Shrink a footprint until no recorded standing point lies inside it.

    A recorded reachable cell is one where AI2-THOR's agent stood, so no furniture covers
    it: where a one-size-per-type footprint does, the real object is smaller. Each such
    point cuts the rectangle on the side that loses the least area.
    """
    x0, x1, z0, z1 = rect
    for x, z in sorted(points):
        if not (x0 < x < x1 and z0 < z < z1):
            continue
        cuts = [
            ((x1 - x) * (z1 - z0), (x, x1, z0, z1)),   # keep the part with larger x
            ((x - x0) * (z1 - z0), (x0, x, z0, z1)),   # keep the part with smaller x
            ((x1 - x0) * (z1 - z), (x0, x1, z, z1)),
            ((x1 - x0) * (z - z0), (x0, x1, z0, z)),
        ]
        x0, x1, z0, z1 = max(cuts)[1]
    return (x0, x1, z0, z1)


def covers(rect: Rect, x: float, z: float) -> bool:
    """Whether the point lies strictly inside the rectangle (a zero-size one covers nothing)."""
    return rect[0] < x < rect[1] and rect[2] < z < rect[3]


def on_wall(object_type: str, position: tuple[float, float, float],
            size: tuple[float, float, float]) -> bool:
    """Whether the object hangs on a wall (so its x or z marks where a wall is)."""
    if object_type in WALL_MOUNTED:
        return True
    return object_type == "Cabinet" and position[1] - size[1] / 2 >= HIGH_BOTTOM


def room_bounds(reachable: Iterable[Cell], walls: Iterable[tuple[float, float]] = (),
                margin: float = ROOM_MARGIN) -> Rect:
    """The room's extent: the recorded cells' bounding box grown by ``margin``, and further
    out to any wall-mounted object (x, z) beyond it (objects hang on the walls)."""
    cells = list(reachable)
    xs = [c[0] * GRID for c in cells]
    zs = [c[1] * GRID for c in cells]
    wall = list(walls)
    wx = [w[0] for w in wall]
    wz = [w[1] for w in wall]
    return (min([min(xs) - margin, *wx]), max([max(xs) + margin, *wx]),
            min([min(zs) - margin, *wz]), max([max(zs) + margin, *wz]))


def inside(bounds: Rect, x: float, z: float, inset: float = AGENT_RADIUS) -> bool:
    """Whether the point is at least ``inset`` inside the rectangle."""
    eps = 1e-9
    return (bounds[0] + inset - eps <= x <= bounds[1] - inset + eps
            and bounds[2] + inset - eps <= z <= bounds[3] - inset + eps)


def enclosed_cells(recorded: set[Cell]) -> set[Cell]:
    """Unrecorded cells enclosed by recorded ones (holes not 4-connected to the outside).

    AI2-THOR's reachability search walked all around such a hole and found it blocked
    (kitchen islands, tables, beds in the middle of a room), so it is trusted; the misses
    of the recorded list lie on the outer side (along walls and wall-standing furniture).
    """
    xs = [c[0] for c in recorded]
    zs = [c[1] for c in recorded]
    x0, x1, z0, z1 = min(xs) - 1, max(xs) + 1, min(zs) - 1, max(zs) + 1
    outside: set[Cell] = set()
    stack = [(x0, z0)]
    while stack:
        c = stack.pop()
        if c in outside or c in recorded or not (x0 <= c[0] <= x1 and z0 <= c[1] <= z1):
            continue
        outside.add(c)
        stack.extend(((c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1)))
    return {(i, j) for i in range(x0, x1 + 1) for j in range(z0, z1 + 1)
            if (i, j) not in recorded and (i, j) not in outside}


def grow_navigable(reachable: Iterable[Cell], bounds: Rect, blockers: list[Rect],
                   max_rings: int | None = MAX_RINGS,
                   enclosed_rings: int = ENCLOSED_RINGS) -> set[Cell]:
    """The recorded cells plus free cells 4-connected to them (see module docstring)."""
    recorded = set(reachable)
    enclosed = enclosed_cells(recorded) if recorded else set()
    navigable = set(recorded)
    frontier = sorted(navigable)
    ring = 0
    while frontier and (max_rings is None or ring < max_rings):
        ring += 1
        nxt: set[Cell] = set()
        for i, j in frontier:
            for cell in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if cell in navigable or cell in nxt:
                    continue
                if cell in enclosed and ring > enclosed_rings:
                    continue
                x, z = cell[0] * GRID, cell[1] * GRID
                if inside(bounds, x, z) and not any(covers(r, x, z) for r in blockers):
                    nxt.add(cell)
        navigable |= nxt
        frontier = sorted(nxt)
    return navigable


def _dist(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    return math.dist(a, b)


def pair_controls(switches: dict[str, tuple[float, float, float]],
                  targets: dict[str, tuple[float, float, float]]) -> dict[str, tuple[str, ...]]:
    """Pair each switch with one target: globally nearest pairs first, one-to-one while
    targets remain, then any leftover switch takes its nearest target. Deterministic."""
    pairs = sorted((_dist(sp, tp), s, t) for s, sp in switches.items() for t, tp in targets.items())
    out: dict[str, tuple[str, ...]] = {}
    used: set[str] = set()
    for _, s, t in pairs:
        if s not in out and t not in used:
            out[s] = (t,)
            used.add(t)
    for _, s, t in pairs:
        if s not in out:
            out[s] = (t,)
    return {s: out.get(s, ()) for s in sorted(switches)}


def nearest(switches: dict[str, tuple[float, float, float]],
            targets: dict[str, tuple[float, float, float]]) -> dict[str, tuple[str, ...]]:
    """Each switch controls its nearest target (ties broken by id); () if there is none."""
    out: dict[str, tuple[str, ...]] = {}
    for s, sp in sorted(switches.items()):
        best = min(((_dist(sp, tp), t) for t, tp in targets.items()), default=None)
        out[s] = (best[1],) if best else ()
    return out
