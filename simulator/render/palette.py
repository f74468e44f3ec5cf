"""Per-type appearance table: AI2-THOR object type -> shape kind, base colour, variation.

Owns only data and the deterministic per-instance colour variation (a hash of the
objectId, stable across processes). The shape kinds are built in ``styles``.
Unknown types fall back to a box with a colour hashed from the type name.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

RGB = tuple[float, float, float]


@dataclass(frozen=True)
class Look:
    kind: str  # a builder name in styles.BUILDERS
    color: RGB  # base colour, 0..1
    jitter: float = 0.06  # per-instance colour variation amplitude
    material: int = 0  # fragment-shader material of the main body (see shaders)


# fragment-shader materials
PLAIN, GLOW, SPOTS, WOOD, FLOOR, WALL, METAL = 0, 1, 2, 3, 4, 5, 6

_WOOD, _DARKWOOD, _WHITE = (0.62, 0.45, 0.28), (0.40, 0.27, 0.17), (0.90, 0.90, 0.88)
_STEEL, _BLACK = (0.70, 0.72, 0.74), (0.12, 0.12, 0.13)

LOOKS: dict[str, Look] = {
    # furniture and fixtures
    "Fridge": Look("fridge", (0.86, 0.87, 0.88), 0.03, METAL),
    "Cabinet": Look("cabinet", _WOOD, 0.04, WOOD),
    "Drawer": Look("drawer", _WOOD, 0.04, WOOD),
    "Safe": Look("cabinet", (0.30, 0.31, 0.33), 0.03, METAL),
    "Microwave": Look("microwave", (0.25, 0.25, 0.27), 0.05, METAL),
    "CounterTop": Look("counter", (0.78, 0.76, 0.72), 0.05),
    "Sink": Look("sink", (0.78, 0.76, 0.72), 0.04),
    "SinkBasin": Look("basin", (0.60, 0.62, 0.64), 0.03, METAL),
    "Bathtub": Look("bathtub", (0.94, 0.94, 0.93), 0.02),
    "BathtubBasin": Look("basin", (0.88, 0.89, 0.90), 0.02),
    "StoveBurner": Look("burner", (0.10, 0.10, 0.11), 0.02),
    "StoveKnob": Look("knob", (0.15, 0.15, 0.16), 0.02),
    "CoffeeMachine": Look("coffee", (0.18, 0.18, 0.20), 0.05, METAL),
    "Toaster": Look("toaster", (0.75, 0.76, 0.78), 0.06, METAL),
    "Faucet": Look("faucet", _STEEL, 0.02, METAL),
    "ShowerHead": Look("faucet", _STEEL, 0.02, METAL),
    "DiningTable": Look("table", _WOOD, 0.08, WOOD),
    "CoffeeTable": Look("table", _DARKWOOD, 0.08, WOOD),
    "SideTable": Look("table", _WOOD, 0.08, WOOD),
    "Desk": Look("table", (0.55, 0.40, 0.26), 0.08, WOOD),
    "Chair": Look("chair", _DARKWOOD, 0.08, WOOD),
    "Stool": Look("chair", (0.35, 0.30, 0.26), 0.08),
    "Sofa": Look("sofa", (0.45, 0.48, 0.58), 0.12),
    "ArmChair": Look("sofa", (0.55, 0.42, 0.38), 0.12),
    "Ottoman": Look("box", (0.50, 0.40, 0.35), 0.10),
    "Footstool": Look("box", (0.45, 0.35, 0.30), 0.10),
    "Bed": Look("bed", (0.85, 0.85, 0.90), 0.08),
    "DogBed": Look("box", (0.55, 0.45, 0.40), 0.10),
    "Dresser": Look("furniture", _WOOD, 0.06, WOOD),
    "Shelf": Look("furniture", (0.72, 0.62, 0.48), 0.06, WOOD),
    "ShelvingUnit": Look("furniture", (0.60, 0.50, 0.40), 0.06, WOOD),
    "TVStand": Look("furniture", _DARKWOOD, 0.06, WOOD),
    "Toilet": Look("toilet", (0.95, 0.95, 0.95), 0.02),
    "Television": Look("tv", _BLACK, 0.02),
    "Laptop": Look("laptop", (0.30, 0.31, 0.33), 0.06, METAL),
    "Desktop": Look("tv", (0.20, 0.20, 0.22), 0.03),
    "FloorLamp": Look("floorlamp", (0.20, 0.20, 0.20), 0.04),
    "DeskLamp": Look("desklamp", (0.25, 0.25, 0.27), 0.06),
    "LightSwitch": Look("box", (0.93, 0.92, 0.88), 0.02),
    "Window": Look("panel", (0.65, 0.80, 0.92), 0.03),
    "Painting": Look("panel", (0.60, 0.45, 0.40), 0.25),
    "Poster": Look("panel", (0.70, 0.60, 0.50), 0.25),
    "Mirror": Look("panel", (0.75, 0.82, 0.86), 0.02, METAL),
    "Blinds": Look("box", (0.88, 0.86, 0.80), 0.04),
    "Curtains": Look("box", (0.60, 0.30, 0.30), 0.15),
    "ShowerCurtain": Look("box", (0.80, 0.85, 0.90), 0.10),
    "ShowerDoor": Look("cabinet", (0.75, 0.85, 0.90), 0.02),
    "ShowerGlass": Look("box", (0.78, 0.88, 0.92), 0.02),
    "GarbageCan": Look("cup", (0.35, 0.37, 0.40), 0.10, METAL),  # open at the top: what is thrown in shows
    "LaundryHamper": Look("cyl", (0.70, 0.62, 0.48), 0.08),
    "HousePlant": Look("plant", (0.25, 0.55, 0.22), 0.08),
    "TowelHolder": Look("box", _STEEL, 0.02, METAL),
    "HandTowelHolder": Look("box", _STEEL, 0.02, METAL),
    "ToiletPaperHanger": Look("box", _STEEL, 0.02, METAL),
    # kitchen objects
    "Mug": Look("mug", (0.85, 0.85, 0.82), 0.30),
    "Cup": Look("cup", (0.80, 0.85, 0.90), 0.25),
    "Bowl": Look("bowl", (0.85, 0.80, 0.70), 0.25),
    "Plate": Look("plate", (0.93, 0.93, 0.90), 0.08),
    "Pan": Look("pan", (0.20, 0.20, 0.22), 0.05, METAL),
    "Pot": Look("pot", (0.55, 0.57, 0.60), 0.08, METAL),
    "Kettle": Look("kettle", (0.70, 0.20, 0.18), 0.25, METAL),
    "Bottle": Look("cyl", (0.30, 0.55, 0.35), 0.20),
    "WineBottle": Look("bottle", (0.15, 0.30, 0.15), 0.10),
    "SoapBottle": Look("bottle", (0.40, 0.70, 0.85), 0.25),
    "SprayBottle": Look("bottle", (0.85, 0.85, 0.30), 0.25),
    "SaltShaker": Look("cyl", (0.92, 0.92, 0.92), 0.04),
    "PepperShaker": Look("cyl", (0.20, 0.18, 0.16), 0.04),
    "Knife": Look("knife", _STEEL, 0.03, METAL),
    "ButterKnife": Look("butter_knife", _STEEL, 0.03, METAL),
    "Fork": Look("fork", _STEEL, 0.03, METAL),
    "Spoon": Look("spoon", _STEEL, 0.03, METAL),
    "Spatula": Look("box", (0.15, 0.15, 0.15), 0.05),
    "Ladle": Look("box", (0.65, 0.67, 0.70), 0.05, METAL),
    "DishSponge": Look("box", (0.95, 0.80, 0.20), 0.15),
    "PaperTowelRoll": Look("cyl", (0.96, 0.96, 0.94), 0.02),
    "AluminumFoil": Look("cyl", (0.80, 0.82, 0.85), 0.02, METAL),
    "Apple": Look("apple", (0.62, 0.06, 0.10), 0.08),
    "Tomato": Look("tomato", (0.92, 0.24, 0.08), 0.05),
    "Potato": Look("ball", (0.65, 0.50, 0.30), 0.08),
    "Lettuce": Look("ball", (0.45, 0.75, 0.30), 0.08),
    "Egg": Look("ball", (0.95, 0.90, 0.80), 0.04),
    "Bread": Look("loaf", (0.78, 0.55, 0.28), 0.06),
    "AppleSliced": Look("slice", (0.96, 0.92, 0.72), 0.04),
    "TomatoSliced": Look("slice", (0.90, 0.25, 0.20), 0.04),
    "PotatoSliced": Look("slice", (0.95, 0.90, 0.62), 0.04),
    "LettuceSliced": Look("slice", (0.60, 0.85, 0.40), 0.04),
    "BreadSliced": Look("slab", (0.93, 0.82, 0.60), 0.04),
    "EggCracked": Look("egg_cracked", (0.98, 0.98, 0.95), 0.02),
    # other small objects
    "Book": Look("book", (0.55, 0.20, 0.20), 0.35),
    "Newspaper": Look("box", (0.85, 0.85, 0.80), 0.04),
    "CellPhone": Look("box", (0.10, 0.10, 0.12), 0.05),
    "RemoteControl": Look("box", (0.15, 0.15, 0.15), 0.05),
    "KeyChain": Look("box", (0.80, 0.70, 0.30), 0.10, METAL),
    "CreditCard": Look("box", (0.20, 0.40, 0.75), 0.25),
    "Watch": Look("box", (0.30, 0.25, 0.20), 0.15),
    "Pen": Look("box", (0.15, 0.20, 0.60), 0.20),
    "Pencil": Look("box", (0.95, 0.75, 0.15), 0.05),
    "CD": Look("plate", (0.80, 0.80, 0.85), 0.05, METAL),
    "AlarmClock": Look("box", (0.20, 0.22, 0.25), 0.25),
    "Box": Look("box", (0.72, 0.56, 0.38), 0.06),
    "Candle": Look("cyl", (0.95, 0.92, 0.85), 0.05),
    "Vase": Look("cyl", (0.35, 0.50, 0.70), 0.35),
    "Statue": Look("ball", (0.55, 0.55, 0.58), 0.25),
    "TissueBox": Look("box", (0.60, 0.75, 0.85), 0.25),
    "Pillow": Look("box", (0.80, 0.75, 0.65), 0.30),
    "Cloth": Look("box", (0.70, 0.30, 0.35), 0.30),
    "Towel": Look("box", (0.85, 0.85, 0.95), 0.25),
    "HandTowel": Look("box", (0.85, 0.90, 0.85), 0.25),
    "SoapBar": Look("box", (0.95, 0.85, 0.75), 0.15),
    "ToiletPaper": Look("cyl", (0.97, 0.97, 0.97), 0.02),
    "ScrubBrush": Look("box", (0.30, 0.55, 0.80), 0.20),
    "Plunger": Look("cyl", (0.55, 0.15, 0.12), 0.05),
    "BasketBall": Look("ball", (0.85, 0.45, 0.15), 0.04),
    "BaseballBat": Look("box", (0.75, 0.60, 0.40), 0.06, WOOD),
    "TennisRacket": Look("box", (0.25, 0.45, 0.25), 0.15),
    "TeddyBear": Look("ball", (0.60, 0.42, 0.25), 0.10),
    "Dumbbell": Look("box", (0.20, 0.20, 0.22), 0.05, METAL),
    "Boots": Look("box", (0.30, 0.20, 0.12), 0.10),
    "GarbageBag": Look("ball", (0.10, 0.10, 0.10), 0.03),
    "VacuumCleaner": Look("box", (0.55, 0.20, 0.60), 0.15),
    "WateringCan": Look("kettle", (0.30, 0.60, 0.35), 0.20, METAL),
    "RoomDecor": Look("box", (0.60, 0.55, 0.50), 0.25),
    "TableTopDecor": Look("ball", (0.60, 0.55, 0.50), 0.25),
    "TargetCircle": Look("plate", (0.85, 0.15, 0.15), 0.02),
}


def digest(text: str) -> bytes:
    """A stable (unsalted) 16-byte hash."""
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def unit_noise(text: str, count: int) -> list[float]:
    """``count`` deterministic numbers in [-1, 1] from a string."""
    d = digest(text)
    return [d[i % 16] / 127.5 - 1.0 for i in range(count)]


def look_of(object_type: str) -> Look:
    """The appearance of a type; unknown types get a box with a colour from the name."""
    look = LOOKS.get(object_type)
    if look is not None:
        return look
    a, b, c = unit_noise(object_type, 3)
    return Look("box", (0.5 + 0.3 * a, 0.5 + 0.3 * b, 0.5 + 0.3 * c), 0.1)


def clamp_rgb(c: tuple[float, ...]) -> RGB:
    return (min(max(c[0], 0.0), 1.0), min(max(c[1], 0.0), 1.0), min(max(c[2], 0.0), 1.0))


def instance_color(object_id: str, base: RGB, jitter: float) -> RGB:
    """Base colour varied per instance: brightness plus (for large jitter) hue."""
    b, r, g, bl = unit_noise(object_id, 4)
    scale = 1.0 + 0.5 * jitter * b
    return clamp_rgb(
        (base[0] * scale + jitter * r, base[1] * scale + jitter * g, base[2] * scale + jitter * bl)
    )


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


def shade(a: RGB, f: float) -> RGB:
    return clamp_rgb((a[0] * f, a[1] * f, a[2] * f))


def seed_of(object_id: str) -> float:
    """A per-instance number in [0, 1) for procedural texture phases."""
    return digest(object_id)[5] / 256.0
