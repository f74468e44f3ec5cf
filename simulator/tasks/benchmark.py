"""The 12 TEACh benchmark task types, their task definitions and their parameter variants.

``TEACH_TASK_TYPES`` maps a benchmark task type (TEACh's names) to the task definition that
implements it (both from the one table, ``contracts.tasks``) and a default parameter tuple. ``TEACH_TASK_VARIANTS`` lists, per type, every
parameter variant we generate episodes for, with the room types it fits. The variants
follow TEACh's patterns (TEACh's own counts are in parentheses): Clean All X over dirtyable
types and classes (19), Put All X On Y / In One Y over pickupable things and receptacles
that can hold them, per room type (209 / 84), N Slices Of X In Y (16), N Cooked Slices Of X
In Y (10), Sandwich (5), Salad (9) and Breakfast (80) combinations; Water Plant, Make
Coffee, Boil Potato and Plate Of Toast have one. Which pairs are possible comes from the
simulator's placement rules (``can_contain``), so every variant can be completed.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from contracts.tasks import TEACH_TASK_TYPES as TASK_TABLE
from simulator.object_types import can_contain, type_info
from simulator.tasks.classes import class_members

KITCHEN, LIVING, BEDROOM, BATHROOM = "kitchen", "living_room", "bedroom", "bathroom"


@dataclass(frozen=True)
class TaskVariant:
    """One parameterisation of a benchmark task type."""

    task_type: str
    task_name: str
    params: tuple[str, ...]
    room_types: tuple[str, ...]


BREAKFAST_DEFAULT = ("1", "1", "0", "Plate", "0", "Plate", "0", "1", "1", "0", "1", "1", "1", "CounterTop")

# one default parameter tuple per benchmark type (names and definitions: ``contracts.tasks``)
_DEFAULT_PARAMS: dict[str, tuple[str, ...]] = {
    "Water Plant": (),
    "Make Coffee": (),
    "Clean All X": ("Mug",),
    "Put All X On Y": ("RemoteControl", "on", "Sofa"),
    "Boil Potato": ("Potato",),
    "Make Plate Of Toast": (),
    "N Slices Of X In Y": ("1", "Tomato", "on", "Plate"),
    "Put All X In One Y": ("Pencil", "in", "Drawer"),
    "N Cooked Slices Of X In Y": ("1", "Potato", "on", "Plate"),
    "Prepare Sandwich": ("1", "1"),
    "Prepare Salad": ("1", "1", "1"),
    "Prepare Breakfast": BREAKFAST_DEFAULT,
}
TEACH_TASK_TYPES: dict[str, tuple[str, tuple[str, ...]]] = {
    t.name: (t.definition, _DEFAULT_PARAMS[t.name]) for t in TASK_TABLE
}

# ---------------------------------------------------------------------------------- Put All X ...
PUT_ALL = {
    KITCHEN: (
        ["Fork", "Spoon", "ButterKnife", "Knife", "Silverware", "Cup", "Mug", "Drinkware", "Plate", "Bowl",
         "Dishware", "Apple", "Tomato", "Potato", "Lettuce", "Bread", "Egg", "Fruit", "Vegetables", "Pot", "Pan",
         "SaltShaker", "PepperShaker", "Condiments", "DishSponge", "Spatula"],
        ["DiningTable", "CounterTop", "Cabinet", "Drawer", "Fridge", "Sink"],
    ),
    LIVING: (
        ["RemoteControl", "KeyChain", "CreditCard", "Newspaper", "Book", "Watch", "Pillow", "Laptop", "Statue",
         "Vase", "TissueBox", "CellPhone"],
        ["Sofa", "ArmChair", "CoffeeTable", "SideTable", "DiningTable", "Dresser", "Tables"],
    ),
    BEDROOM: (
        ["Pen", "Pencil", "WritingUtensils", "CD", "CellPhone", "AlarmClock", "Book", "Pillow", "KeyChain",
         "CreditCard", "Laptop", "TeddyBear"],
        ["Bed", "Desk", "Dresser", "SideTable", "Shelf", "Drawer"],
    ),
    BATHROOM: (
        ["SoapBar", "SoapBottle", "Soap", "Cloth", "ToiletPaper", "SprayBottle", "Candle", "ScrubBrush", "HandTowel"],
        ["CounterTop", "Toilet", "Cabinet", "Drawer", "Bathtub", "Sink", "Shelf"],
    ),
}
INSIDE = {"Cabinet", "Drawer", "Fridge", "Sink", "SinkBasin", "Bathtub", "BathtubBasin", "Box", "GarbageCan",
          "Microwave", "Safe", "Bowl", "Pot", "Pan", "Cup", "Mug", "LaundryHamper"}
ONE_Y = {"Cabinet", "Drawer", "CounterTop", "Shelf", "SideTable", "ArmChair", "Tables"}


def preposition(receptacle: str) -> str:
    return "in" if receptacle in INSIDE else "on"


def _fits(things: str, receptacle: str) -> bool:
    """Can every pickupable member of ``things`` go in/on some member of ``receptacle``?"""
    holders = [r for r in class_members(receptacle) if _known(r) and type_info(r).receptacle]
    members = [t for t in class_members(things) if _known(t) and type_info(t).pickupable]
    return bool(holders and members) and all(any(can_contain(r, t) for r in holders) for t in members)


def _known(object_type: str) -> bool:
    try:
        type_info(object_type)
    except Exception:
        return False
    return True


def _put_all(task_type: str, task_name: str, only: set[str] | None) -> list[TaskVariant]:
    seen: dict[tuple[str, ...], list[str]] = {}
    for room, (things, receptacles) in PUT_ALL.items():
        for x in things:
            for y in receptacles:
                if (only is None or y in only) and x != y and _fits(x, y):
                    seen.setdefault((x, preposition(y), y), []).append(room)
    return [TaskVariant(task_type, task_name, params, tuple(rooms)) for params, rooms in seen.items()]


# ---------------------------------------------------------------------------------- kitchen dishes
SANDWICHES = (("1", "1"), ("1", "0"), ("0", "1"), ("2", "0"), ("0", "2"))
SALADS = (("1", "1", "1"), ("1", "1", "0"), ("1", "0", "1"), ("0", "1", "1"), ("2", "1", "0"),
          ("1", "2", "0"), ("2", "0", "1"), ("0", "2", "1"), ("1", "1", "2"))
# breakfast dishes: parameter index -> value, on top of "nothing"
DISHES = {
    "toast": {1: "1"},
    "potatoes": {2: "1", 3: "Plate"},
    "apple": {4: "1", 5: "Plate"},
    "sandwich": {6: "1", 7: "1", 8: "1"},
    "salad": {9: "1", 10: "1", 11: "1", 12: "1"},
}
DISH_VARIANTS = {
    "potatoes_bowl": {2: "1", 3: "Bowl"},
    "apple_bowl": {4: "1", 5: "Bowl"},
    "sandwich_lettuce": {6: "1", 7: "1", 8: "0"},
    "salad_no_potato": {9: "1", 10: "1", 11: "1", 12: "0"},
}
BREAKFAST_SPOTS = ("CounterTop", "DiningTable")


def _breakfast(coffee: str, dishes: list[dict[int, str]], spot: str) -> tuple[str, ...]:
    params = ["0", "0", "0", "Plate", "0", "Plate", "0", "0", "0", "0", "0", "0", "0", spot]
    params[0] = coffee
    for dish in dishes:
        for index, value in dish.items():
            params[index] = value
    return tuple(params)


def _breakfasts() -> list[tuple[str, ...]]:
    out = []
    singles = [*DISHES.values(), *DISH_VARIANTS.values()]
    for spot in BREAKFAST_SPOTS:
        out += [_breakfast("1", [dish], spot) for dish in singles]
        for a, b in combinations(DISHES.values(), 2):
            out += [_breakfast(coffee, [a, b], spot) for coffee in ("1", "0")]
    return out


def _variants() -> dict[str, tuple[TaskVariant, ...]]:
    k = (KITCHEN,)
    one = {name: (TaskVariant(name, task, params, k),) for name, (task, params) in TEACH_TASK_TYPES.items()
           if name in ("Water Plant", "Make Coffee", "Boil Potato", "Make Plate Of Toast")}
    clean = [TaskVariant("Clean All X", "Clean All X", (x,), k)
             for x in ("Mug", "Cup", "Plate", "Bowl", "Pot", "Pan", "Dishware", "Drinkware", "Cookware", "Tableware")]
    clean.append(TaskVariant("Clean All X", "Clean All X", ("Cloth",), (BATHROOM,)))
    slices = [TaskVariant("N Slices Of X In Y", "N Slices Of X In Y", (n, x, preposition(y), y), k)
              for x in ("Apple", "Tomato", "Lettuce", "Potato") for n in ("1", "2") for y in ("Plate", "Bowl")]
    cooked = [TaskVariant("N Cooked Slices Of X In Y", "N Cooked Slices Of X In Y", (n, "Potato", preposition(y), y), k)
              for n in ("1", "2", "3", "4", "5") for y in ("Plate", "Bowl")]
    return {
        "Water Plant": one["Water Plant"],
        "Make Coffee": one["Make Coffee"],
        "Clean All X": tuple(clean),
        "Put All X On Y": tuple(_put_all("Put All X On Y", "Put All X On Y", None)),
        "Boil Potato": one["Boil Potato"],
        "Make Plate Of Toast": one["Make Plate Of Toast"],
        "N Slices Of X In Y": tuple(slices),
        "Put All X In One Y": tuple(_put_all("Put All X In One Y", "Put All X In One Y", ONE_Y)),
        "N Cooked Slices Of X In Y": tuple(cooked),
        "Prepare Sandwich": tuple(TaskVariant("Prepare Sandwich", "Sandwich", p, k) for p in SANDWICHES),
        "Prepare Salad": tuple(TaskVariant("Prepare Salad", "Salad", p, k) for p in SALADS),
        "Prepare Breakfast": tuple(TaskVariant("Prepare Breakfast", "Breakfast", p, k) for p in _breakfasts()),
    }


TEACH_TASK_VARIANTS: dict[str, tuple[TaskVariant, ...]] = _variants()


def teach_task_variants(task_type: str | None = None) -> list[TaskVariant]:
    """Every variant (of one benchmark task type, or of all twelve), in a fixed order."""
    if task_type is None:
        return [v for variants in TEACH_TASK_VARIANTS.values() for v in variants]
    if task_type not in TEACH_TASK_VARIANTS:
        from simulator.tasks.tdl import TaskDefinitionError

        raise TaskDefinitionError(
            f"unknown TEACh task type {task_type!r} (expected one of: {', '.join(TEACH_TASK_VARIANTS)})"
        )
    return list(TEACH_TASK_VARIANTS[task_type])
