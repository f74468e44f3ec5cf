"""State-change rules of AI2-THOR (and TEACh's derived states), applied to a ``World``.

What happens when an appliance is switched on or an object lands somewhere:
- a Faucet on: objects in the basin it feeds get clean; fillable ones fill with water;
- a closed Microwave on: its contents get hot, cookable ones cooked;
- a StoveBurner on (through its StoveKnob): what is in the Pot/Pan on it gets hot and
  cooked; a Potato in a Pot of water is boiled (TEACh's ``simbotIsBoiled``);
- a Toaster on: BreadSliced inside is toasted (cooked);
- a CoffeeMachine on: the Mug/Cup in it fills with coffee;
- an object put in the Fridge gets cold; put into a running basin / onto a lit burner /
  into a running toaster, it gets the same effect as if the appliance was switched on then.
ALFRED's cleaned/heated/cooled sets are recorded as ALFRED's own environment records them
(Faucet on, Microwave on, Fridge closed). Slicing lives here too (``slice_object``).
"""

from __future__ import annotations

from simulator.objects import COLD, HOT, SimObject, format_object_id
from simulator.world import World

# AI2-THOR's sliced pieces per sliceable type (ALFRED's expert ids use indices up to
# Apple 2, Bread 8, Lettuce 7, Potato 8, Tomato 6); an Egg cracks into one EggCracked.
SLICE_COUNTS = {"Apple": 8, "Bread": 10, "Lettuce": 8, "Potato": 9, "Tomato": 8, "Egg": 1}
HEATING_VESSELS = ("Pot", "Pan", "Kettle")
BASINS = ("SinkBasin", "BathtubBasin")


def descendants(world: World, object_id: str) -> list[SimObject]:
    out, stack = [], list(world.objects[object_id].children)
    while stack:
        obj = world.objects[stack.pop()]
        out.append(obj)
        stack.extend(obj.children)
    return out


def _heat(obj: SimObject) -> None:
    obj.temperature = HOT
    if obj.cookable:
        obj.is_cooked = True
        obj.simbot_is_cooked = True


def _clean_and_fill(obj: SimObject) -> None:
    if obj.dirtyable:
        obj.is_dirty = False
    if obj.fillable and not obj.is_filled:
        obj.is_filled, obj.liquid = True, "water"
        obj.simbot_is_filled_with_water = True


def controlled_by(world: World, switch_id: str) -> list[str]:
    return [oid for oid in world.scene.controls.get(switch_id, ()) if oid in world.objects]


def _basins_of(world: World, faucet_id: str) -> list[SimObject]:
    return [world.objects[oid] for oid in controlled_by(world, faucet_id) if world.objects[oid].object_type in BASINS]


def _running(world: World, appliance: SimObject) -> bool:
    """Is this basin fed by a running faucet / this burner lit by its knob?"""
    if appliance.object_type in BASINS:
        return any(
            world.objects[fid].is_toggled
            for fid, targets in world.scene.controls.items()
            if appliance.object_id in targets and fid in world.objects
        )
    return appliance.is_toggled


def _burner_effect(world: World, burner: SimObject) -> None:
    for vessel in (world.objects[c] for c in burner.children):
        vessel.temperature = HOT
        contents = descendants(world, vessel.object_id)
        for obj in contents:
            _heat(obj)
            if vessel.object_type == "Pot" and vessel.is_filled and obj.object_type.startswith("Potato"):
                obj.simbot_is_boiled = True


def _microwave_effect(world: World, microwave: SimObject) -> None:
    for obj in descendants(world, microwave.object_id):
        _heat(obj)


def _toaster_effect(world: World, toaster: SimObject) -> None:
    for obj in descendants(world, toaster.object_id):
        if obj.object_type == "BreadSliced":
            _heat(obj)


def _coffee_effect(world: World, machine: SimObject) -> None:
    for obj in (world.objects[c] for c in machine.children):
        if obj.fillable:
            obj.is_filled, obj.liquid = True, "coffee"
            obj.simbot_is_filled_with_coffee = True


def on_toggled(world: World, obj: SimObject) -> None:
    """Effects of ``obj`` having just been switched on or off."""
    if obj.object_type == "StoveKnob":
        for burner_id in controlled_by(world, obj.object_id):
            burner = world.objects[burner_id]
            burner.is_toggled = obj.is_toggled
            if burner.is_toggled:
                _burner_effect(world, burner)
        return
    if not obj.is_toggled:
        return
    kind = obj.object_type
    if kind == "Faucet":
        for basin in _basins_of(world, obj.object_id):
            contents = descendants(world, basin.object_id)
            for item in contents:
                _clean_and_fill(item)
            world.cleaned.update(basin.children)
    elif kind == "Microwave":
        if not obj.is_open:
            _microwave_effect(world, obj)
            world.heated.update(obj.children)
    elif kind == "StoveBurner":
        _burner_effect(world, obj)
    elif kind == "Toaster":
        _toaster_effect(world, obj)
    elif kind == "CoffeeMachine":
        _coffee_effect(world, obj)


def on_placed(world: World, obj: SimObject, receptacle: SimObject) -> None:
    """Effects of ``obj`` having just been put into or onto ``receptacle``."""
    kind = receptacle.object_type
    moved = [obj, *descendants(world, obj.object_id)]
    if kind == "Fridge":
        for item in moved:
            item.temperature = COLD
    elif kind in BASINS and _running(world, receptacle):
        for item in moved:
            _clean_and_fill(item)
    elif kind == "StoveBurner" and receptacle.is_toggled:
        _burner_effect(world, receptacle)
    elif kind in HEATING_VESSELS and receptacle.parent is not None:
        burner = world.objects[receptacle.parent]
        if burner.object_type == "StoveBurner" and burner.is_toggled:
            _burner_effect(world, burner)
    elif kind == "Toaster" and receptacle.is_toggled:
        _toaster_effect(world, receptacle)
    elif kind == "CoffeeMachine" and receptacle.is_toggled:
        _coffee_effect(world, receptacle)


def on_closed(world: World, obj: SimObject) -> None:
    """ALFRED records what was in the Fridge when it was closed as cooled."""
    if obj.object_type == "Fridge":
        world.cooled.update(obj.children)


def slice_object(world: World, target: SimObject) -> list[str]:
    """Replace a (not held) sliceable object by its pieces (ids ``<id>|<Type>Sliced_<k>``)."""
    piece_type = "EggCracked" if target.object_type == "Egg" else f"{target.object_type}Sliced"
    base_id = format_object_id(target.object_type, target.position) if "|" not in target.object_id else target.object_id
    count = SLICE_COUNTS.get(target.object_type, 1)
    parent_id = target.parent
    x, y, z = target.position
    sx, sy, sz = target.size
    world.remove(target.object_id)
    new_ids = []
    fitted = _fitted_layout(target, piece_type)
    for k in range(count):
        if fitted is not None:
            place, extent = fitted
            (position, size), rotation = place(k), target.rotation
        else:  # our own row across the whole object's x extent
            offset = (k - (count - 1) / 2) * (sx / max(count, 1))
            position, size = (x + offset, y, z), (max(sx / count, 0.02), sy, sz) if count > 1 else (sx, sy / 2, sz)
            rotation, extent = (0.0, 0.0, 0.0), None
        piece = SimObject(
            object_id=f"{base_id}|{piece_type}_{k}",
            object_type=piece_type,
            position=position,
            size=size,
            rotation=rotation,
            extent=extent,
            is_cooked=target.is_cooked,
            simbot_is_cooked=target.simbot_is_cooked,
            temperature=target.temperature,
            is_dirty=False,
        )
        piece.is_sliced = True
        world.add(piece)
        if parent_id is not None:
            piece.parent = parent_id
            world.objects[parent_id].children.append(piece.object_id)
        new_ids.append(piece.object_id)
    return new_ids


def _fitted_layout(target: SimObject, piece_type: str):
    """(place, extents): ``place(k)`` is piece k's (box centre, axis-aligned size) as
    AI2-THOR lays pieces out, in a row along the whole object's own axis from its pivot
    (fitted to the train masks, ``simulator.calibration.slicefit``), and ``extents`` the
    pieces' full extents in that frame; None where nothing was fitted (our own row)."""
    import numpy as np

    from simulator.calibration.table import object_box, rotation_matrix, slice_layout

    layout, whole = slice_layout(piece_type), object_box(target.object_type)
    if layout is None or whole is None:
        return None
    (extent, start, step), r = layout, rotation_matrix(tuple(float(v) for v in target.rotation))
    pivot = np.asarray(target.position) - r @ np.asarray(whole[1])
    aabb = tuple(round(float(v), 5) for v in np.abs(r) @ np.asarray(extent))
    # pieces beyond AI2-THOR's count pile up at the whole object's ends
    low = np.asarray(whole[1]) - np.asarray(whole[0]) / 2
    high = np.asarray(whole[1]) + np.asarray(whole[0]) / 2

    def place(k: int):
        centre = pivot + r @ np.clip(np.asarray(start) + k * np.asarray(step), low, high)
        return tuple(round(float(v), 5) for v in centre), aabb

    return place, tuple(float(v) for v in extent)
