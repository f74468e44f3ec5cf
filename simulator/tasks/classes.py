"""Object classes for task definitions: hypernyms such as Silverware, Dishware, Cookware.

A condition ``"simbotObjectClass": "Dishware"`` (TEACh's name; ``"objectClass"`` is accepted
too) holds for an object whose type belongs to that class in
``contracts/data/object_classes.json`` (``contracts.tasks.object_class_table``, shared with
the parsers). Every type is its own class, so a parameter may name
either a type ("Mug") or a class ("Drinkware"). As in TEACh, a Sink and its SinkBasin (a
Bathtub and its BathtubBasin) stand for each other, and sliced pieces inherit the classes of
the whole object (an AppleSliced is Fruit).
"""

from __future__ import annotations

from functools import lru_cache

from contracts.tasks import object_class_table

ALIASES = {"Sink": "SinkBasin", "SinkBasin": "Sink", "Bathtub": "BathtubBasin", "BathtubBasin": "Bathtub"}


@lru_cache(maxsize=512)
def object_classes(object_type: str) -> tuple[str, ...]:
    """Every class an object of ``object_type`` belongs to, starting with its own type."""
    out = [object_type]
    if object_type in ALIASES:
        out.append(ALIASES[object_type])
    base = object_type.removesuffix("Sliced").removesuffix("Cracked")
    for name, members in object_class_table().items():
        if object_type in members or (base != object_type and base in members):
            out.append(name)
    return tuple(dict.fromkeys(out))


def class_members(name: str) -> tuple[str, ...]:
    """The object types of a class (a type name gives itself, plus its Sink/Bathtub alias)."""
    if name in object_class_table():
        return object_class_table()[name]
    return (name, ALIASES[name]) if name in ALIASES else (name,)


def same_type(object_type: str, wanted: str) -> bool:
    """TEACh's objectType test: equal, or a Sink/SinkBasin (Bathtub/BathtubBasin) pair."""
    return object_type == wanted or ALIASES.get(object_type) == wanted
