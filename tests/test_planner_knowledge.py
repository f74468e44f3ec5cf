"""The planner's copy of the object type knowledge agrees with the simulator's tables
(the planner may not import the simulator, so it ships its own copy)."""

from __future__ import annotations

import json
from importlib import resources

from planner import knowledge
from simulator.actions import RESTRICTED_RECEPTACLES
from simulator.object_types import all_types, can_contain, type_info
from simulator.tasks.classes import object_classes


def test_properties_and_placement_agree_with_the_simulator():
    for name in all_types():
        info = type_info(name)
        assert knowledge.has(name, "pickupable") == info.pickupable and knowledge.has(name, "openable") == info.openable
        assert knowledge.has(name, "receptacle") == info.receptacle and knowledge.has(name, "toggleable") == info.toggleable
    for receptacle in RESTRICTED_RECEPTACLES:
        for obj in all_types():
            if type_info(obj).pickupable:
                assert knowledge.can_put(obj, receptacle) == can_contain(receptacle, obj), (obj, receptacle)


def test_classes_agree_with_the_simulator():
    for name in all_types():
        assert knowledge.classes_of(name) == frozenset(object_classes(name)), name
    data = json.loads((resources.files("planner") / "data" / "object_knowledge.json").read_text())
    assert set(data["properties"]) == set(all_types())


def test_pieces_and_wholes():
    assert knowledge.piece_of("Apple") == "AppleSliced" and knowledge.piece_of("Egg") == "EggCracked"
    assert knowledge.whole_of("TomatoSliced") == "Tomato" and knowledge.piece_of("Mug") is None
    assert knowledge.is_kind("AppleSliced", "Fruit") or not knowledge.is_kind("Mug", "Fruit")
