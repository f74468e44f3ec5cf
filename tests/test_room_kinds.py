"""The room kind: once what the Follower saw tells a kitchen, a toilet detected is a phantom
(``mapping.room_kinds``, the semantic mapper's ``room_kinds`` parameter)."""

from __future__ import annotations

import pytest

from contracts.belief import ObjectMemory
from contracts.geometry import Pose
from contracts.language import LocationHint
from contracts.observation import ModuleContext
from mapping import room_kinds
from mapping.room_kinds import DECIDED, MIN_SIGHTINGS, RoomKind
from mapping.semantic import SemanticMapper
from tests.test_semantic_map import CAMERA, _wall_detection, observe, room_depth

KITCHEN = ("StoveBurner", "Fridge", "Microwave", "Toaster")


def test_the_table_tells_kitchens_from_bathrooms():
    kinds = room_kinds.kinds_of_types()
    assert kinds["StoveBurner"] == {"kitchen"} and kinds["Toilet"] == {"bathroom"}
    assert {"kitchen", "bathroom"} <= kinds["SinkBasin"] and len(kinds["Cabinet"]) == 4


def test_a_kitchen_is_told_by_what_was_seen_often_enough_and_then_holds_no_toilet():
    memory = ObjectMemory()
    room = RoomKind()
    for object_type in KITCHEN[:DECIDED - 1]:
        memory.add(object_type, (0.0, 1.0, 1.0), times_seen=MIN_SIGHTINGS)
    memory.add(KITCHEN[DECIDED - 1], (0.0, 1.0, 1.0), times_seen=1)  # glimpsed once: no evidence yet
    toilet = memory.add("Toilet", (1.0, 0.4, 1.0), times_seen=MIN_SIGHTINGS)
    assert room.judge(memory) is None and room.allows("Toilet")
    memory.instances[f"{KITCHEN[DECIDED - 1]}#1"].times_seen = MIN_SIGHTINGS
    assert room.judge(memory) == "kitchen"
    assert not room.allows("Toilet") and not room.allows("Bathtub") and room.allows("SinkBasin")
    assert room.allows("BreadSliced") and room.allows("NoSuchType")  # a piece as its whole; unknown types
    knife = memory.add("Knife", (1.0, 0.5, 1.0), container=toilet.key)
    assert room.forget_phantoms(memory) == [toilet.key]
    assert toilet.key not in memory.instances and knife.container is None


def test_small_movable_things_do_not_tell_the_room():
    """Apples, knives and pots are found in kitchens only, but the detector imagines them
    anywhere: a bedroom with its bed seen is not taken for a kitchen by them."""
    memory = ObjectMemory()
    for object_type in ("Apple", "Knife", "Pot", "Tomato", "Bed"):
        memory.add(object_type, (0.0, 1.0, 1.0), times_seen=10)
    room = RoomKind()
    assert room.judge(memory) is None and room.allows("Bed")


def test_a_room_with_as_much_of_another_kind_is_not_decided_and_spoken_types_stay():
    memory = ObjectMemory()
    for object_type in (*KITCHEN[:DECIDED], "Toilet", "Bathtub"):
        memory.add(object_type, (0.0, 1.0, 1.0), times_seen=MIN_SIGHTINGS)
    room = RoomKind()
    assert room.judge(memory) is None  # 3 kitchen types against 2 bathroom ones: no verdict
    for object_type in KITCHEN[DECIDED:]:
        memory.add(object_type, (0.0, 1.0, 1.0), times_seen=MIN_SIGHTINGS)
    del memory.instances["Bathtub#1"]
    held = memory.instances["Toilet#1"]
    memory.held = held.key
    assert room.judge(memory) == "kitchen" and room.forget_phantoms(memory) == []  # the held one stays
    room.told([LocationHint("WateringCan", "on", "CounterTop")])  # the Commander sees the real room
    assert room.allows("WateringCan") and not room.allows("Newspaper")


@pytest.mark.parametrize("on", [True, False])
def test_the_mapper_ignores_a_toilet_in_a_kitchen(on):
    m = SemanticMapper(SemanticMapper.Params(cell_size=0.1, map_size=12.0, stride=1, room_kinds=on))
    m.reset(ModuleContext(CAMERA, True))
    here = Pose(0.0, 0.0, 0.0, 0.0)
    kitchen = [_wall_detection(t, slice(40, 50), slice(10 + 25 * n, 20 + 25 * n)) for n, t in enumerate(KITCHEN)]
    toilet = _wall_detection("Toilet", slice(70, 80), slice(50, 60))
    m.update(observe(here, room_depth()), [toilet])
    assert m.memory.of_type("Toilet")  # nothing told the room yet
    for _ in range(MIN_SIGHTINGS):
        m.update(observe(here, room_depth()), [*kitchen, toilet])
    assert bool(m.memory.of_type("Toilet")) != on
    assert all(m.memory.of_type(t) for t in KITCHEN)
