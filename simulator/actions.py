"""Agent actions: both vocabularies (ALFRED and TEACh) mapped onto one set of handlers.

Each handler checks AI2-THOR's preconditions and either changes the world and returns
``None`` or returns an AI2-THOR-like error message and changes nothing. Targets are given
by ``objectId`` (oracles, ALFRED's expert) or by a relative screen point ``x, y`` in
[0, 1] (TEACh's click, resolved by ``simulator.targeting``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from simulator import rules
from simulator.geometry import heading_vector
from simulator.object_types import can_contain
from simulator.objects import SimObject, encloses, slide_offset
from simulator.placement import put_landing
from simulator.scenes import cell_center
from simulator.targeting import Target, resolve_target
from simulator.world import World


@dataclass(frozen=True)
class ActionSpec:
    """A canonical operation, its parameter (step, degrees) and what its target must afford."""

    op: str
    amount: float = 0.0
    affordance: str | None = None


MOVES = {"ahead": 0, "right": 90, "back": 180, "left": 270}

# Every action name the simulator accepts, in both vocabularies.
ACTIONS: dict[str, ActionSpec] = {
    # ALFRED / AI2-THOR
    "MoveAhead": ActionSpec("move", MOVES["ahead"]),
    "MoveBack": ActionSpec("move", MOVES["back"]),
    "MoveLeft": ActionSpec("move", MOVES["left"]),
    "MoveRight": ActionSpec("move", MOVES["right"]),
    "RotateLeft": ActionSpec("rotate", -90),
    "RotateRight": ActionSpec("rotate", 90),
    "LookUp": ActionSpec("look", -15),
    "LookDown": ActionSpec("look", 15),
    "PickupObject": ActionSpec("pickup", affordance="pickupable"),
    "PutObject": ActionSpec("put", affordance="receptacle"),
    "OpenObject": ActionSpec("open", affordance="openable"),
    "CloseObject": ActionSpec("close", affordance="openable"),
    "ToggleObjectOn": ActionSpec("toggle_on", affordance="toggleable"),
    "ToggleObjectOff": ActionSpec("toggle_off", affordance="toggleable"),
    "SliceObject": ActionSpec("slice", affordance="sliceable"),
    # TEACh Follower
    "Forward": ActionSpec("move", MOVES["ahead"]),
    "Backward": ActionSpec("move", MOVES["back"]),
    "Pan Left": ActionSpec("move", MOVES["left"]),
    "Pan Right": ActionSpec("move", MOVES["right"]),
    "Turn Left": ActionSpec("rotate", -90),
    "Turn Right": ActionSpec("rotate", 90),
    "Look Up": ActionSpec("look", -30),
    "Look Down": ActionSpec("look", 30),
    "Pickup": ActionSpec("pickup", affordance="pickupable"),
    "Place": ActionSpec("put", affordance="receptacle"),
    "Open": ActionSpec("open", affordance="openable"),
    "Close": ActionSpec("close", affordance="openable"),
    "ToggleOn": ActionSpec("toggle_on", affordance="toggleable"),
    "ToggleOff": ActionSpec("toggle_off", affordance="toggleable"),
    "Slice": ActionSpec("slice", affordance="sliceable"),
    "Pour": ActionSpec("pour", affordance="pourable"),
    "Stop": ActionSpec("stop"),
    "Text": ActionSpec("text"),
}
NAVIGATION_OPS = ("move", "rotate", "look")
INTERACTION_OPS = ("pickup", "put", "open", "close", "toggle_on", "toggle_off", "slice", "pour")
HORIZON_RANGE = (-30.0, 60.0)
KNIVES = ("Knife", "ButterKnife")


def move(world: World, agent_index: int, spec: ActionSpec, target: Target) -> str | None:
    agent = world.agents[agent_index]
    dx, dz = heading_vector(agent.rotation + spec.amount)
    cell = (agent.cell[0] + round(dx), agent.cell[1] + round(dz))
    if not world.free_cell(cell, agent_index):
        return "Agent collided with an obstacle: the way is blocked"
    agent.x, agent.z = cell_center(cell)
    if agent.held:
        world.move_to(agent.held, world.hand_position(agent_index))
    return None


def rotate(world: World, agent_index: int, spec: ActionSpec, target: Target) -> str | None:
    agent = world.agents[agent_index]
    agent.rotation = int((agent.rotation + spec.amount) % 360)
    if agent.held:
        world.move_to(agent.held, world.hand_position(agent_index))
    return None


def look(world: World, agent_index: int, spec: ActionSpec, target: Target) -> str | None:
    agent = world.agents[agent_index]
    horizon = agent.horizon + spec.amount
    if not HORIZON_RANGE[0] - 1e-6 <= horizon <= HORIZON_RANGE[1] + 1e-6:
        return f"Camera horizon {horizon:g} is outside [{HORIZON_RANGE[0]:g}, {HORIZON_RANGE[1]:g}] degrees"
    agent.horizon = horizon
    return None


def pickup(world: World, agent_index: int, spec: ActionSpec, target: Target) -> str | None:
    agent = world.agents[agent_index]
    obj = target.obj
    if agent.held is not None:
        return f"Agent's hand is full: already holding {agent.held}"
    if not obj.pickupable:
        return f"{obj.object_id} is not pickupable"
    world.give_to(obj.object_id, agent_index)
    obj.simbot_picked_up = True
    return None


def put(world: World, agent_index: int, spec: ActionSpec, target: Target) -> str | None:
    agent = world.agents[agent_index]
    receptacle = target.obj
    if agent.held is None:
        return "No object in hand to put"
    held = world.objects[agent.held]
    if not receptacle.receptacle:
        return f"{receptacle.object_id} is not a receptacle"
    basin = world.objects.get(f"{receptacle.object_id}|{receptacle.object_type}Basin")
    if basin is not None:  # a click on a sink's (bathtub's) rim puts into its basin, as in AI2-THOR
        receptacle = basin
    if encloses(receptacle) and not receptacle.is_open:
        return f"Receptacle {receptacle.object_id} is closed"
    if receptacle.object_id == held.object_id or receptacle.object_id in _descendant_ids(world, held):
        return f"Cannot place {held.object_id} inside itself"
    if not placement_allowed(receptacle.object_type, held.object_type):
        return f"Cannot place {held.object_type} in {receptacle.object_type}"
    spot = put_landing(world, receptacle, held, agent.camera(world.field_of_view))
    world.put_in(held.object_id, receptacle.object_id, spot)
    rules.on_placed(world, held, receptacle)
    return None


# Receptacles that AI2-THOR restricts to particular objects (its receptacle placement
# restrictions); every other receptacle takes any pickupable object that is put in it.
RESTRICTED_RECEPTACLES = (
    "Toaster", "CoffeeMachine", "StoveBurner", "HandTowelHolder", "TowelHolder", "ToiletPaperHanger",
)


def placement_allowed(receptacle_type: str, object_type: str) -> bool:
    if receptacle_type in RESTRICTED_RECEPTACLES:
        return can_contain(receptacle_type, object_type)
    return True


def _descendant_ids(world: World, obj: SimObject) -> set[str]:
    return {o.object_id for o in rules.descendants(world, obj.object_id)}


def open_object(world: World, agent_index: int, spec: ActionSpec, target: Target) -> str | None:
    obj = target.obj
    if not obj.openable:
        return f"{obj.object_id} is not openable"
    if obj.is_open:
        return f"{obj.object_id} is already open"
    if obj.object_type == "Microwave" and obj.is_toggled:
        return "Cannot open the Microwave while it is on"
    set_open(world, obj, True)
    return None


def set_open(world: World, obj: SimObject, is_open: bool) -> None:
    """Open or close an openable object; what lies in a drawer moves with it when it is
    pulled out or pushed in."""
    if obj.is_open == is_open:
        return
    obj.is_open = is_open
    dx, _, dz = slide_offset(obj)
    sign = 1.0 if is_open else -1.0
    if dx or dz:
        for inside in rules.descendants(world, obj.object_id):
            x, y, z = inside.position
            inside.position = (round(x + sign * dx, 4), y, round(z + sign * dz, 4))


def close_object(world: World, agent_index: int, spec: ActionSpec, target: Target) -> str | None:
    obj = target.obj
    if not obj.openable:
        return f"{obj.object_id} is not openable"
    if not obj.is_open:
        return f"{obj.object_id} is already closed"
    set_open(world, obj, False)
    rules.on_closed(world, obj)
    return None


def toggle(world: World, agent_index: int, spec: ActionSpec, target: Target) -> str | None:
    obj = target.obj
    turn_on = spec.op == "toggle_on"
    if not obj.toggleable:
        return f"{obj.object_id} is not toggleable"
    if obj.is_toggled == turn_on:
        return f"{obj.object_id} is already {'on' if turn_on else 'off'}"
    if obj.is_broken:
        return f"{obj.object_id} is broken"
    obj.is_toggled = turn_on
    rules.on_toggled(world, obj)
    return None


def slice_action(world: World, agent_index: int, spec: ActionSpec, target: Target) -> str | None:
    agent = world.agents[agent_index]
    obj = target.obj
    held = world.objects[agent.held].object_type if agent.held else None
    if obj.object_type != "Egg" and held not in KNIVES:
        return "Agent must hold a Knife or ButterKnife to slice"
    if not obj.sliceable:
        return f"{obj.object_id} is not sliceable"
    if obj.is_sliced:
        return f"{obj.object_id} is already sliced"
    rules.slice_object(world, obj)
    return None


def pour(world: World, agent_index: int, spec: ActionSpec, target: Target) -> str | None:
    agent = world.agents[agent_index]
    if agent.held is None:
        return "No object in hand to pour from"
    source = world.objects[agent.held]
    if not (source.fillable and source.is_filled):
        return f"{source.object_id} is not filled with liquid"
    obj = target.obj
    if obj.object_id == source.object_id:
        return "Cannot pour into the object in hand"
    if obj.fillable and obj.object_type != "HousePlant":
        obj.is_filled, obj.liquid = True, source.liquid
        obj.simbot_is_filled_with_water = source.liquid == "water"
        obj.simbot_is_filled_with_coffee = source.liquid == "coffee"
    elif obj.object_type == "HousePlant":
        obj.is_filled, obj.liquid = True, source.liquid
        obj.simbot_is_filled_with_water = True
    elif obj.object_type not in rules.BASINS:
        return f"Cannot pour into {obj.object_type}"
    source.is_filled, source.liquid = False, None
    source.simbot_is_filled_with_water = source.simbot_is_filled_with_coffee = False
    return None


HANDLERS: dict[str, Callable[[World, int, ActionSpec, Target], str | None]] = {
    "move": move,
    "rotate": rotate,
    "look": look,
    "pickup": pickup,
    "put": put,
    "open": open_object,
    "close": close_object,
    "toggle_on": toggle,
    "toggle_off": toggle,
    "slice": slice_action,
    "pour": pour,
}


def apply(world: World, agent_index: int, spec: ActionSpec, target_args: dict) -> str | None:
    """Run one action; return None on success or the error message (world unchanged)."""
    target = Target.none()
    if spec.op in INTERACTION_OPS:
        target, error = resolve_target(world, agent_index, spec, target_args)
        if error:
            return error
    return HANDLERS[spec.op](world, agent_index, spec, target)
