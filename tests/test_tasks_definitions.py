"""Acceptance: every shipped task definition is satisfied by a hand-built state, and by no
state that misses any one of its conditions (a dirty plate, a slice off the plate, an
untoasted slice, a missing knife ...). States are built directly on a FloorPlan1 world."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from simulator import rules
from simulator.object_types import type_info
from simulator.objects import SimObject
from simulator.sim import FOLLOWER, Simulator
from simulator.start_state import ObjectPlacement, StartState
from simulator.tasks import TEACH_TASK_TYPES, instantiate, load_task_library, progress_check
from simulator.world import World

COUNTER = "CounterTop|-00.08|+01.15|00.00"
COUNTER_B = "CounterTop|+00.69|+00.95|-02.48"
FRIDGE = "Fridge|-02.10|+00.00|+01.09"
COFFEE_MACHINE = "CoffeeMachine|-02.00|+00.90|-00.17"
TOASTER = "Toaster|-01.84|+00.90|+00.13"
PLANT = "HousePlant|-01.95|+00.90|-02.52"
SINKS = ("Sink|-01.90|+00.97|-01.50", "Sink|-01.90|+00.97|-01.50|SinkBasin")

LIBRARY = load_task_library()


class Kitchen:
    """FloorPlan1 with the given movable objects, all on one counter; ``ids[type]`` lists them."""

    def __init__(self, **counts: int) -> None:
        placements = []
        for object_type, count in counts.items():
            for _ in range(count):
                placements.append(ObjectPlacement(object_type, (-3.0 + 0.1 * len(placements), -5.0, 3.0)))
        sim = Simulator()
        sim.reset(StartState("FloorPlan1", tuple(placements), follower_pose=(-1.25, -1.25, 270, 30.0)))
        self.world: World = sim.world
        self.ids: dict[str, list[str]] = {}
        for placement in placements:
            self.ids.setdefault(placement.object_type, []).append(placement.resolved_id)
            self.put(placement.resolved_id, COUNTER)

    def __getitem__(self, object_type: str) -> str:
        return self.ids[object_type][0]

    def obj(self, object_id: str) -> SimObject:
        return self.world.objects[object_id]

    def put(self, object_id: str, receptacle_id: str) -> None:
        self.world.put_in(object_id, receptacle_id, self.world.objects[receptacle_id].position)

    def slice(self, object_type: str) -> list[str]:
        pieces = rules.slice_object(self.world, self.obj(self[object_type]))
        self.ids[object_type + "Sliced"] = pieces
        return pieces

    def unslice(self, object_type: str) -> None:
        """Undo a slicing: the pieces go, a whole object is back on the counter."""
        for piece in self.ids.pop(object_type + "Sliced"):
            self.world.remove(piece)
        oid = f"{object_type}|+09.00|+09.00|+09.00"
        self.world.add(SimObject(oid, object_type, (9.0, 9.0, 9.0), type_info(object_type).size))
        self.put(oid, COUNTER)

    def cook(self, object_id: str, cooked: bool = True) -> None:
        self.obj(object_id).is_cooked = self.obj(object_id).simbot_is_cooked = cooked

    def fill_coffee(self, object_id: str) -> None:
        mug = self.obj(object_id)
        mug.is_filled, mug.liquid, mug.simbot_is_filled_with_coffee = True, "coffee", True

    def dirty(self, object_id: str) -> None:
        self.obj(object_id).is_dirty = True

    def hold(self, object_id: str) -> None:
        self.world.give_to(object_id, FOLLOWER)

    def remove(self, *object_ids: str) -> None:
        for oid in object_ids:
            self.world.remove(oid)


Build = Callable[[], Kitchen]
Mutation = Callable[[Kitchen], None]


# ------------------------------------------------------------------------------- satisfied states
def toast() -> Kitchen:
    k = Kitchen(Bread=1, Knife=1)
    k.cook(k.slice("Bread")[0])
    return k


def coffee() -> Kitchen:
    k = Kitchen(Mug=1)
    k.fill_coffee(k["Mug"])
    return k


def clean_plate() -> Kitchen:
    return Kitchen(Plate=1)


def sliced_tomato() -> Kitchen:
    k = Kitchen(Tomato=1, Knife=1)
    k.slice("Tomato")
    return k


def cooked_potato_slice() -> Kitchen:
    k = Kitchen(Potato=1, Knife=1)
    k.cook(k.slice("Potato")[0])
    return k


def plate_of_toast() -> Kitchen:
    k = Kitchen(Bread=1, Knife=1, Plate=1)
    piece = k.slice("Bread")[0]
    k.cook(piece)
    k.put(piece, k["Plate"])
    return k


def two_tomato_slices_on_plate() -> Kitchen:
    k = Kitchen(Tomato=1, Knife=1, Plate=2)
    for piece in k.slice("Tomato")[:2]:
        k.put(piece, k["Plate"])
    return k


def two_cooked_potato_slices_in_bowl() -> Kitchen:
    k = Kitchen(Potato=1, Knife=1, Bowl=1)
    for piece in k.slice("Potato")[:2]:
        k.cook(piece)
        k.put(piece, k["Bowl"])
    return k


def mugs_on_two_counters() -> Kitchen:
    k = Kitchen(Mug=2)
    k.put(k.ids["Mug"][1], COUNTER_B)
    return k


def mugs_on_one_counter() -> Kitchen:
    return Kitchen(Mug=2)


def boiled_potato() -> Kitchen:
    k = Kitchen(Potato=1, Pot=1)
    k.obj(k["Potato"]).simbot_is_boiled = True
    return k


def watered_plant() -> Kitchen:
    k = Kitchen()
    k.obj(PLANT).is_filled = True
    return k


def three_clean_mugs() -> Kitchen:
    return Kitchen(Mug=3)


def sandwich() -> Kitchen:
    k = Kitchen(Bread=1, Lettuce=1, Tomato=1, Knife=1, Plate=1)
    bread = k.slice("Bread")[:2]
    for piece in bread:
        k.cook(piece)
    for piece in (*bread, k.slice("Lettuce")[0], k.slice("Tomato")[0]):
        k.put(piece, k["Plate"])
    return k


def salad() -> Kitchen:
    k = Kitchen(Lettuce=1, Tomato=1, Potato=1, Knife=1, Plate=1)
    potato = k.slice("Potato")[0]
    k.cook(potato)
    for piece in (k.slice("Lettuce")[0], k.slice("Tomato")[0], potato):
        k.put(piece, k["Plate"])
    return k


def breakfast() -> Kitchen:
    """Coffee, a plate of toast and an apple slice in a bowl, all on the counter."""
    k = Kitchen(Mug=1, Bread=1, Apple=1, Knife=1, Plate=1, Bowl=1)
    k.fill_coffee(k["Mug"])
    toast_piece = k.slice("Bread")[0]
    k.cook(toast_piece)
    k.put(toast_piece, k["Plate"])
    k.put(k.slice("Apple")[0], k["Bowl"])
    return k


def _off(kind: str, index: int = 0) -> Mutation:
    return lambda k: k.put(k.ids[kind][index], COUNTER_B)


# task name -> (params, satisfied state, {what is missing: mutation})
SPECS: dict[str, tuple[tuple[str, ...], Build, dict[str, Mutation]]] = {
    "Toast": ((), toast, {
        "slice not toasted": lambda k: k.cook(k.ids["BreadSliced"][0], False),
        "bread not sliced": lambda k: k.unslice("Bread"),
        "no knife": lambda k: k.remove(k["Knife"]),
        "no toaster": lambda k: k.remove(TOASTER),
    }),
    "Coffee": ((), coffee, {
        "mug dirty": lambda k: k.dirty(k["Mug"]),
        "mug without coffee": lambda k: setattr(k.obj(k["Mug"]), "simbot_is_filled_with_coffee", False),
        "no coffee machine": lambda k: k.remove(COFFEE_MACHINE),
    }),
    "Clean X": (("Plate",), clean_plate, {
        "plate dirty": lambda k: k.dirty(k["Plate"]),
        "no sink": lambda k: k.remove(*SINKS),
    }),
    "Sliced X": (("Tomato",), sliced_tomato, {
        "tomato whole": lambda k: k.unslice("Tomato"),
        "no knife": lambda k: k.remove(k["Knife"]),
    }),
    "Cooked Slice Of X": (("Potato",), cooked_potato_slice, {
        "slice raw": lambda k: k.cook(k.ids["PotatoSliced"][0], False),
        "potato whole": lambda k: k.unslice("Potato"),
        "no knife": lambda k: k.remove(k["Knife"]),
    }),
    "Plate Of Toast": ((), plate_of_toast, {
        "slice not toasted": lambda k: k.cook(k.ids["BreadSliced"][0], False),
        "toast off the plate": _off("BreadSliced"),
        "toast in hand": lambda k: k.hold(k.ids["BreadSliced"][0]),
        "plate dirty": lambda k: k.dirty(k["Plate"]),
        "no knife": lambda k: k.remove(k["Knife"]),
        "no toaster": lambda k: k.remove(TOASTER),
    }),
    "N Slices Of X In Y": (("2", "Tomato", "on", "Plate"), two_tomato_slices_on_plate, {
        "one slice off the plate": _off("TomatoSliced", 1),
        "slices on two plates": lambda k: k.put(k.ids["TomatoSliced"][1], k.ids["Plate"][1]),
        "plate dirty": lambda k: k.dirty(k["Plate"]),
        "no knife": lambda k: k.remove(k["Knife"]),
    }),
    "N Cooked Slices Of X In Y": (("2", "Potato", "in", "Bowl"), two_cooked_potato_slices_in_bowl, {
        "one slice raw": lambda k: k.cook(k.ids["PotatoSliced"][1], False),
        "one slice out of the bowl": _off("PotatoSliced", 1),
        "bowl dirty": lambda k: k.dirty(k["Bowl"]),
        "no knife": lambda k: k.remove(k["Knife"]),
    }),
    "Put All X On Y": (("Mug", "on", "CounterTop"), mugs_on_two_counters, {
        "a mug in the fridge": lambda k: k.put(k.ids["Mug"][1], FRIDGE),
        "a mug in hand": lambda k: k.hold(k.ids["Mug"][0]),
    }),
    "Put All X In One Y": (("Mug", "on", "CounterTop"), mugs_on_one_counter, {
        "mugs on two counters": lambda k: k.put(k.ids["Mug"][1], COUNTER_B),
        "a mug in the fridge": lambda k: k.put(k.ids["Mug"][1], FRIDGE),
        "a mug in hand": lambda k: k.hold(k.ids["Mug"][0]),
    }),
    "Boil X": (("Potato",), boiled_potato, {
        "not boiled": lambda k: setattr(k.obj(k["Potato"]), "simbot_is_boiled", False),
        "no pot": lambda k: k.remove(k["Pot"]),
    }),
    "Water Plant": ((), watered_plant, {
        "plant dry": lambda k: setattr(k.obj(PLANT), "is_filled", False),
    }),
    "Clean All X": (("Mug",), three_clean_mugs, {
        "first mug dirty": lambda k: k.dirty(k.ids["Mug"][0]),
        "second mug dirty": lambda k: k.dirty(k.ids["Mug"][1]),
        "third mug dirty": lambda k: k.dirty(k.ids["Mug"][2]),
        "no sink": lambda k: k.remove(*SINKS),
    }),
    "Sandwich": (("1", "1"), sandwich, {
        "second slice not toasted": lambda k: k.cook(k.ids["BreadSliced"][1], False),
        "second toast off the plate": _off("BreadSliced", 1),
        "lettuce off the plate": _off("LettuceSliced"),
        "tomato off the plate": _off("TomatoSliced"),
        "plate dirty": lambda k: k.dirty(k["Plate"]),
        "no knife": lambda k: k.remove(k["Knife"]),
        "no toaster": lambda k: k.remove(TOASTER),
    }),
    "Salad": (("1", "1", "1"), salad, {
        "potato raw": lambda k: k.cook(k.ids["PotatoSliced"][0], False),
        "lettuce off the plate": _off("LettuceSliced"),
        "tomato off the plate": _off("TomatoSliced"),
        "potato off the plate": _off("PotatoSliced"),
        "plate dirty": lambda k: k.dirty(k["Plate"]),
        "no knife": lambda k: k.remove(k["Knife"]),
    }),
    "Breakfast": (("1", "1", "0", "Plate", "1", "Bowl", "0", "1", "1", "0", "1", "1", "1", "CounterTop"), breakfast, {
        "coffee left in the machine": lambda k: k.put(k["Mug"], COFFEE_MACHINE),
        "mug dirty": lambda k: k.dirty(k["Mug"]),
        "no coffee": lambda k: setattr(k.obj(k["Mug"]), "simbot_is_filled_with_coffee", False),
        "toast plate in the fridge": lambda k: k.put(k["Plate"], FRIDGE),
        "toast off its plate": _off("BreadSliced"),
        "toast not toasted": lambda k: k.cook(k.ids["BreadSliced"][0], False),
        "apple bowl in hand": lambda k: k.hold(k["Bowl"]),
        "apple slice out of the bowl": _off("AppleSliced"),
        "apple whole": lambda k: k.unslice("Apple"),
    }),
}

CASES = [(name, missing) for name, (_, _, mutations) in SPECS.items() for missing in mutations]


def check(name: str, k: Kitchen) -> dict:
    return progress_check(k.world, instantiate(LIBRARY, name, SPECS[name][0]))


def test_every_shipped_definition_has_an_acceptance_spec():
    assert set(SPECS) == set(LIBRARY.tasks)
    assert not LIBRARY.errors
    # and the 12 benchmark task types use shipped definitions
    assert {task for task, _ in TEACH_TASK_TYPES.values()} <= set(LIBRARY.tasks)


@pytest.mark.parametrize("name", list(SPECS))
def test_hand_built_state_satisfies_the_task(name):
    result = check(name, SPECS[name][1]())
    assert result["success"] == 1, result
    assert result["goal_conditions_satisfied"] == result["goal_conditions_total"] > 0
    assert all(sub["success"] == 1 for sub in result["subgoals"])
    assert all(step["success"] == 1 for sub in result["subgoals"] for step in sub["steps"])


@pytest.mark.parametrize(("name", "missing"), CASES, ids=[f"{n}: {m}" for n, m in CASES])
def test_a_state_missing_one_condition_does_not(name, missing):
    k = SPECS[name][1]()
    SPECS[name][2][missing](k)
    result = check(name, k)
    assert result["success"] == 0
    assert result["goal_conditions_satisfied"] < result["goal_conditions_total"]
    assert any(sub["success"] == 0 for sub in result["subgoals"])
