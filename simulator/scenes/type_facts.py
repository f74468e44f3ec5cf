"""Build-time facts about AI2-THOR object types that the type documentation does not give.

Owns: the table of approximate default object sizes (full extents x, y, z in metres, with
the object's front facing -z, i.e. depth along z), the few object types ALFRED uses that
AI2-THOR's documentation lacks, and the extra ``can_contain`` rules (AI2-THOR behaviour
that TEACh tasks need beyond ALFRED's planner pairs). ``simulator.scenes.build`` bakes all
of it into ``simulator/data/object_types.json``; nothing reads this module at run time.
"""

from __future__ import annotations

Size = tuple[float, float, float]

# Types ALFRED's data uses but AI2-THOR's type documentation does not list.
EXTRA_TYPES: dict[str, list[str]] = {
    "Cart": ["Receptacle", "Moveable"],
    "Glassbottle": ["Pickupable", "Fillable", "Breakable"],
    "Lamp": ["Toggleable", "Moveable"],
    "LaundryHamperLid": [],
}

# Approximate AI2-THOR sizes (width x, height y, depth z), metres.
SIZES: dict[str, Size] = {
    # furniture and large fixed objects
    "ArmChair": (0.9, 0.9, 0.9), "Bathtub": (1.6, 0.6, 0.8), "BathtubBasin": (1.4, 0.4, 0.6),
    "Bed": (1.6, 0.6, 2.1), "Blinds": (1.0, 1.2, 0.05), "Cabinet": (0.5, 0.5, 0.4),
    "Cart": (0.6, 0.9, 0.4), "Chair": (0.5, 0.9, 0.5), "CoffeeMachine": (0.25, 0.35, 0.25),
    "CoffeeTable": (1.0, 0.45, 0.6), "CounterTop": (1.5, 0.05, 0.65),
    "Curtains": (1.5, 2.0, 0.1), "Desk": (1.2, 0.75, 0.6), "DeskLamp": (0.25, 0.5, 0.25),
    "Desktop": (0.5, 0.4, 0.2), "DiningTable": (1.5, 0.75, 1.0), "DogBed": (0.8, 0.2, 0.6),
    "Drawer": (0.5, 0.15, 0.45), "Dresser": (1.0, 0.9, 0.5), "Faucet": (0.1, 0.2, 0.2),
    "Floor": (5.0, 0.01, 5.0), "FloorLamp": (0.4, 1.6, 0.4), "Footstool": (0.5, 0.4, 0.4),
    "Fridge": (0.7, 1.8, 0.7), "GarbageBag": (0.4, 0.5, 0.4), "GarbageCan": (0.3, 0.4, 0.3),
    "HandTowelHolder": (0.3, 0.3, 0.1), "HousePlant": (0.4, 0.6, 0.4),
    "Lamp": (0.3, 0.6, 0.3), "LaundryHamper": (0.5, 0.6, 0.5),
    "LaundryHamperLid": (0.5, 0.05, 0.5), "LightSwitch": (0.1, 0.15, 0.03),
    "Microwave": (0.5, 0.3, 0.4), "Mirror": (0.8, 1.0, 0.05), "Ottoman": (0.8, 0.45, 0.8),
    "Painting": (0.8, 0.6, 0.05), "Poster": (0.6, 0.8, 0.02), "RoomDecor": (0.5, 0.5, 0.5),
    "Safe": (0.45, 0.45, 0.45), "Shelf": (0.8, 0.05, 0.35), "ShelvingUnit": (1.0, 1.8, 0.4),
    "ShowerCurtain": (1.5, 1.8, 0.05), "ShowerDoor": (1.0, 2.0, 0.05),
    "ShowerGlass": (1.0, 2.0, 0.05), "ShowerHead": (0.15, 0.15, 0.2),
    "SideTable": (0.6, 0.7, 0.5), "Sink": (0.7, 0.2, 0.5), "SinkBasin": (0.5, 0.15, 0.4),
    "Sofa": (2.0, 0.9, 0.9), "Stool": (0.4, 0.6, 0.4), "StoveBurner": (0.25, 0.05, 0.25),
    "StoveKnob": (0.05, 0.05, 0.05), "TargetCircle": (0.2, 0.01, 0.2),
    "Television": (1.2, 0.7, 0.15), "Toaster": (0.3, 0.2, 0.2), "Toilet": (0.45, 0.8, 0.7),
    "ToiletPaperHanger": (0.2, 0.15, 0.1), "TowelHolder": (0.6, 0.1, 0.1),
    "TVStand": (1.5, 0.5, 0.45), "VacuumCleaner": (0.3, 0.3, 0.3), "Window": (1.2, 1.2, 0.1),
    # pickupable objects
    "AlarmClock": (0.15, 0.1, 0.08), "AluminumFoil": (0.3, 0.05, 0.05),
    "Apple": (0.08, 0.08, 0.08), "AppleSliced": (0.08, 0.08, 0.02),
    "BaseballBat": (0.07, 0.85, 0.07), "BasketBall": (0.24, 0.24, 0.24),
    "Book": (0.15, 0.04, 0.22), "Boots": (0.3, 0.3, 0.15), "Bottle": (0.08, 0.3, 0.08),
    "Bowl": (0.18, 0.07, 0.18), "Box": (0.4, 0.3, 0.3), "Bread": (0.25, 0.12, 0.12),
    "BreadSliced": (0.12, 0.12, 0.02), "ButterKnife": (0.2, 0.01, 0.02),
    "Candle": (0.08, 0.12, 0.08), "CD": (0.12, 0.01, 0.12), "CellPhone": (0.07, 0.01, 0.14),
    "Cloth": (0.3, 0.02, 0.3), "CreditCard": (0.085, 0.005, 0.055), "Cup": (0.08, 0.12, 0.08),
    "DishSponge": (0.1, 0.04, 0.07), "Dumbbell": (0.3, 0.12, 0.12), "Egg": (0.05, 0.06, 0.05),
    "EggCracked": (0.1, 0.02, 0.1), "Fork": (0.18, 0.02, 0.03),
    "Glassbottle": (0.08, 0.3, 0.08), "HandTowel": (0.3, 0.4, 0.05),
    "Kettle": (0.25, 0.25, 0.2), "KeyChain": (0.06, 0.01, 0.08), "Knife": (0.3, 0.02, 0.03),
    "Ladle": (0.3, 0.05, 0.08), "Laptop": (0.35, 0.02, 0.25), "Lettuce": (0.2, 0.18, 0.2),
    "LettuceSliced": (0.2, 0.18, 0.03), "Mug": (0.1, 0.1, 0.1), "Newspaper": (0.3, 0.02, 0.4),
    "Pan": (0.45, 0.08, 0.28), "PaperTowelRoll": (0.12, 0.25, 0.12),
    "Pen": (0.15, 0.01, 0.01), "Pencil": (0.18, 0.01, 0.01), "PepperShaker": (0.05, 0.1, 0.05),
    "Pillow": (0.5, 0.15, 0.35), "Plate": (0.25, 0.02, 0.25), "Plunger": (0.15, 0.5, 0.15),
    "Pot": (0.3, 0.2, 0.3), "Potato": (0.1, 0.07, 0.07), "PotatoSliced": (0.1, 0.07, 0.02),
    "RemoteControl": (0.05, 0.02, 0.18), "SaltShaker": (0.05, 0.1, 0.05),
    "ScrubBrush": (0.1, 0.3, 0.1), "SoapBar": (0.1, 0.03, 0.06),
    "SoapBottle": (0.08, 0.2, 0.08), "Spatula": (0.3, 0.03, 0.07), "Spoon": (0.18, 0.02, 0.04),
    "SprayBottle": (0.1, 0.25, 0.08), "Statue": (0.15, 0.3, 0.15),
    "TableTopDecor": (0.2, 0.2, 0.2), "TeddyBear": (0.3, 0.35, 0.25),
    "TennisRacket": (0.3, 0.7, 0.04), "TissueBox": (0.25, 0.12, 0.13),
    "ToiletPaper": (0.12, 0.11, 0.12), "Tomato": (0.09, 0.08, 0.09),
    "TomatoSliced": (0.09, 0.09, 0.02), "Towel": (0.5, 0.8, 0.05), "Vase": (0.15, 0.3, 0.15),
    "Watch": (0.05, 0.01, 0.05), "WateringCan": (0.35, 0.25, 0.15),
    "WineBottle": (0.09, 0.32, 0.09),
}
# Fallback sizes by category, for a type missing from SIZES.
DEFAULT_PICKUPABLE: Size = (0.15, 0.15, 0.15)
DEFAULT_FIXED: Size = (0.5, 0.5, 0.5)

# Sliced pieces and the whole object they come from.
SLICED_FROM: dict[str, str] = {
    "AppleSliced": "Apple", "BreadSliced": "Bread", "LettuceSliced": "Lettuce",
    "PotatoSliced": "Potato", "TomatoSliced": "Tomato", "EggCracked": "Egg",
}
DISHES = ("Plate", "Bowl", "Pot", "Pan", "Kettle", "Mug", "Cup")
FOOD = ("Apple", "Tomato", "Potato", "Lettuce", "Egg", "Bread")
UTENSILS = ("Fork", "Spoon", "Knife", "ButterKnife", "Spatula", "Ladle")
WASHING = ("Cloth", "DishSponge", "SoapBar", "HandTowel")
LIQUID_CONTAINERS = ("Glassbottle", "WineBottle", "Bottle", "WateringCan")
# Largest footprint (max of x, z) and height of an object that fits on a Plate or in a Bowl.
ON_DISH_MAX_FOOTPRINT = 0.3
ON_DISH_MAX_HEIGHT = 0.35
NOT_ON_DISH = ("Plate", "Bowl", "Pot", "Pan", "Kettle", "Box", "Laptop", "Cloth", "Newspaper")


def extra_pairs(alfred: set[tuple[str, str]], pickupable: set[str]) -> set[tuple[str, str]]:
    """The AI2-THOR containment rules added to ALFRED's pairs (documented in docs/scenes.md)."""
    pairs = set(alfred)
    # Sliced pieces go wherever their whole object can, plus on dishes and in pots/pans.
    for piece, whole in SLICED_FROM.items():
        pairs |= {(rec, piece) for rec, obj in alfred if obj == whole}
        pairs |= {(rec, piece) for rec in ("Plate", "Bowl", "Pan", "Pot")}
    pairs |= {("StoveBurner", t) for t in ("Pot", "Pan", "Kettle")}
    pairs.add(("Toaster", "BreadSliced"))
    pairs |= {("CoffeeMachine", "Mug"), ("CoffeeMachine", "Cup")}
    pairs |= {(rec, t) for rec in ("Pot", "Pan") for t in ("Potato", "Egg", *SLICED_FROM)}
    for obj in sorted(pickupable):
        w, h, d = SIZES.get(obj, DEFAULT_PICKUPABLE)
        if obj not in NOT_ON_DISH and max(w, d) <= ON_DISH_MAX_FOOTPRINT and h <= ON_DISH_MAX_HEIGHT:
            pairs |= {("Plate", obj), ("Bowl", obj)}
    washable = (*DISHES, *FOOD, *SLICED_FROM, *UTENSILS, *WASHING, *LIQUID_CONTAINERS)
    for basin in ("SinkBasin", "BathtubBasin"):
        pairs |= {(basin, t) for t in washable}
    # The Sink/Bathtub objects ("Receptacle (some instances)") mirror their basins.
    for outer, basin in (("Sink", "SinkBasin"), ("Bathtub", "BathtubBasin")):
        pairs |= {(outer, obj) for rec, obj in list(pairs) if rec == basin}
    return pairs
