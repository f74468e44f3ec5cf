"""A deterministic synthetic kitchen (room + ~100 objects) for benchmarks, tests, examples.

Owns only test/demo content; real floor plans come from ``simulator.scenes``.
"""

from __future__ import annotations

import numpy as np

from .types import RenderObject, RoomGeometry

_SMALL = (
    "Mug", "Cup", "Bowl", "Plate", "Apple", "Tomato", "Potato", "Egg", "Bread", "Lettuce",
    "Knife", "Fork", "Spoon", "Pan", "Pot", "Kettle", "SaltShaker", "PepperShaker",
    "SoapBottle", "WineBottle", "Book", "CellPhone", "Vase", "DishSponge", "PaperTowelRoll",
    "AppleSliced", "BreadSliced", "TomatoSliced", "Spatula", "Ladle",
)  # fmt: skip

_SIZES = {
    "Mug": (0.12, 0.1, 0.1), "Cup": (0.08, 0.1, 0.08), "Bowl": (0.18, 0.07, 0.18),
    "Plate": (0.25, 0.02, 0.25), "Apple": (0.08, 0.09, 0.08), "Tomato": (0.09, 0.07, 0.09),
    "Potato": (0.12, 0.07, 0.08), "Egg": (0.05, 0.06, 0.05), "Bread": (0.3, 0.14, 0.15),
    "Lettuce": (0.18, 0.16, 0.18), "Knife": (0.3, 0.02, 0.04), "Fork": (0.2, 0.02, 0.03),
    "Spoon": (0.2, 0.02, 0.04), "Pan": (0.45, 0.06, 0.26), "Pot": (0.3, 0.16, 0.3),
    "Kettle": (0.2, 0.22, 0.16), "SaltShaker": (0.05, 0.1, 0.05), "PepperShaker": (0.05, 0.1, 0.05),
    "SoapBottle": (0.08, 0.2, 0.08), "WineBottle": (0.08, 0.32, 0.08), "Book": (0.2, 0.04, 0.26),
    "CellPhone": (0.08, 0.01, 0.15), "Vase": (0.12, 0.25, 0.12), "DishSponge": (0.1, 0.03, 0.07),
    "PaperTowelRoll": (0.12, 0.25, 0.12), "AppleSliced": (0.08, 0.08, 0.015),
    "BreadSliced": (0.12, 0.12, 0.015), "TomatoSliced": (0.08, 0.08, 0.012),
    "Spatula": (0.3, 0.03, 0.07), "Ladle": (0.3, 0.06, 0.08),
}  # fmt: skip


def _oid(t: str, c: tuple[float, float, float]) -> str:
    return f"{t}|{c[0]:+.2f}|{c[1]:+.2f}|{c[2]:+.2f}"


def _obj(
    t: str, c: tuple[float, float, float], s: tuple[float, float, float], **state
) -> RenderObject:
    c = tuple(round(float(v), 3) for v in c)
    return RenderObject(_oid(t, c), t, c, tuple(float(v) for v in s), **state)


def make_object(object_type: str, center, size, **state) -> RenderObject:
    """A RenderObject with an AI2-THOR-style objectId built from type and position."""
    return _obj(object_type, tuple(center), tuple(size), **state)


def open_room(half: float = 10.0) -> RoomGeometry:
    """A large empty room (no navigable cells) centred at the origin, for tests."""
    return RoomGeometry(frozenset(), (-half, half, -half, half))


def synthetic_room(width: float = 6.0, depth: float = 5.0) -> RoomGeometry:
    """A rectangular room from (0, 0) to (width, depth) with a 0.8 m band of furniture
    along the walls left non-navigable."""
    cells = frozenset(
        (i, j)
        for i in range(int(width / 0.25) + 1)
        for j in range(int(depth / 0.25) + 1)
        if 0.8 <= i * 0.25 <= width - 0.8
        and 0.8 <= j * 0.25 <= depth - 0.8
        and not (2.0 <= i * 0.25 <= 4.0 and 2.0 <= j * 0.25 <= 3.0)
    )
    return RoomGeometry(cells, (0.0, width, 0.0, depth))


def synthetic_kitchen(
    seed: int = 0, n_small: int = 60, open_states: bool = True
) -> tuple[RoomGeometry, list[RenderObject]]:
    """A kitchen with counters, fridge, cabinets, drawers, sink, stove, appliances, a table,
    chairs, and ``n_small`` small objects on the surfaces (about 40 + n_small objects)."""
    rng = np.random.default_rng(seed)
    room = synthetic_room()
    objs: list[RenderObject] = []
    # counters along the back (z = 5) and left (x = 0) walls
    for k in range(6):
        x = 0.9 + 0.6 * k
        objs.append(_obj("CounterTop", (x, 0.45, 4.7), (0.6, 0.9, 0.6)))
        objs.append(
            _obj("Cabinet", (x, 0.35, 4.38), (0.58, 0.6, 0.04), is_open=open_states and k == 1)
        )
        objs.append(
            _obj("Drawer", (x, 0.8, 4.66), (0.5, 0.12, 0.5), is_open=open_states and k == 4)
        )
        objs.append(
            _obj("Cabinet", (x, 1.85, 4.8), (0.58, 0.7, 0.4), is_open=open_states and k == 3)
        )
    for k in range(4):
        objs.append(_obj("CounterTop", (0.3, 0.45, 1.2 + 0.6 * k), (0.6, 0.9, 0.6)))
    objs.append(_obj("Fridge", (0.45, 0.9, 4.55), (0.8, 1.8, 0.8), is_open=open_states))
    objs.append(_obj("Sink", (2.1, 0.86, 4.7), (0.6, 0.1, 0.45)))
    objs.append(_obj("SinkBasin", (2.1, 0.84, 4.7), (0.48, 0.14, 0.34), is_filled=open_states))
    objs.append(_obj("Faucet", (2.1, 1.0, 4.95), (0.06, 0.25, 0.2), is_toggled=open_states))
    for k, (dx, dz) in enumerate(((-0.13, -0.12), (0.13, -0.12), (-0.13, 0.12), (0.13, 0.12))):
        objs.append(
            _obj(
                "StoveBurner",
                (3.3 + dx, 0.91, 4.7 + dz),
                (0.2, 0.02, 0.2),
                is_toggled=open_states and k % 2 == 0,
            )
        )
        objs.append(
            _obj(
                "StoveKnob",
                (3.3 + dx, 0.85, 4.39),
                (0.04, 0.04, 0.03),
                is_toggled=open_states and k % 2 == 0,
            )
        )
    objs.append(
        _obj("Microwave", (4.3, 1.06, 4.75), (0.5, 0.3, 0.4), is_open=open_states, is_toggled=False)
    )
    objs.append(_obj("CoffeeMachine", (2.7, 1.08, 4.8), (0.25, 0.35, 0.3), is_toggled=open_states))
    objs.append(_obj("Toaster", (0.3, 1.0, 2.0), (0.25, 0.2, 0.15), is_toggled=open_states))
    objs.append(_obj("DiningTable", (3.0, 0.38, 2.5), (1.6, 0.76, 0.9)))
    for dx, dz in ((-0.4, -0.7), (0.4, -0.7), (-0.4, 0.7), (0.4, 0.7)):
        objs.append(_obj("Chair", (3.0 + dx, 0.45, 2.5 + dz), (0.45, 0.9, 0.45)))
    objs.append(_obj("GarbageCan", (5.7, 0.3, 0.3), (0.35, 0.6, 0.35)))
    objs.append(_obj("HousePlant", (5.7, 0.4, 1.2), (0.4, 0.8, 0.4)))
    objs.append(_obj("FloorLamp", (5.7, 0.8, 2.2), (0.4, 1.6, 0.4), is_toggled=open_states))
    objs.append(_obj("Window", (3.0, 1.6, 0.02), (1.2, 0.9, 0.04)))
    objs.append(_obj("Painting", (5.98, 1.6, 3.6), (0.04, 0.6, 0.8)))
    objs.append(_obj("LightSwitch", (5.98, 1.2, 4.4), (0.02, 0.1, 0.08)))
    # small objects on the table and counters
    surfaces = [((2.35, 3.65), (2.1, 2.9), 0.76)] + [((0.65, 4.2), (4.5, 4.9), 0.9)]
    for n in range(n_small):
        t = _SMALL[int(rng.integers(len(_SMALL)))]
        (x0, x1), (z0, z1), top = surfaces[n % 2]
        s = _SIZES[t]
        c = (rng.uniform(x0, x1), top + s[1] / 2 + 0.001, rng.uniform(z0, z1))
        state = {
            "is_dirty": bool(rng.random() < 0.25),
            "is_filled": bool(rng.random() < 0.3) and t in ("Mug", "Cup", "Bowl", "Pot"),
            "is_cooked": bool(rng.random() < 0.3) and t in ("Potato", "Egg", "Bread"),
            "is_sliced": bool(rng.random() < 0.2) and t in ("Apple", "Bread", "Tomato"),
        }
        objs.append(_obj(t, c, s, **state))
    # hidden: contents of a closed cabinet and one held object
    objs.append(_obj("Mug", (1.5, 1.85, 4.8), (0.12, 0.1, 0.1), hidden=True))
    objs.append(_obj("Apple", (3.0, 1.2, 1.5), (0.08, 0.09, 0.08), hidden=True))
    return room, objs
