"""A put refused by a type other than the receptacle believed ("Cannot place Cup in
Toaster" for a believed sink basin): when the believed box is no larger than that type's
objects, the detector named it wrong and the memory renames it (``mapping.memory_updates``);
the mapper fuses later sightings of the old type there into it (``mapping.semantic``)."""

from __future__ import annotations

from contracts.geometry import Pose
from contracts.planning import ActionOutcome, LowLevelAction
from mapping.memory_updates import apply_outcome
from tests.test_memory_updates import _do, _scene
from tests.test_semantic_map import _wall_detection, mapper, observe, room_depth


def test_a_put_refused_by_another_type_names_a_receptacle_no_larger_than_that_type():
    """"Cannot place Mug in Toaster" for a put into a believed basin of a toaster's size: a
    toaster taken for a basin; for a counter or a basin larger than a toaster, a click that
    hit a toaster beside or on it, and nothing changes."""
    memory = _scene()
    small = memory.add("SinkBasin", (2.5, 0.95, 1.0), extent=(0.25, 0.2, 0.3), times_seen=3)
    memory.add("Cup", (2.5, 1.0, 1.0), extent=(0.08, 0.1, 0.08), times_seen=1, container=small.key)
    _do(memory, "Pickup", "Mug#1")
    for receptacle in ("CounterTop#1", "SinkBasin#1"):
        apply_outcome(memory, ActionOutcome(LowLevelAction("Place", {"x": 0.5, "y": 0.5}, None, receptacle), False,
                                            "Cannot place Mug in Toaster"))
    assert not memory.of_type("Toaster") and len(memory.of_type("SinkBasin")) == 2
    apply_outcome(memory, ActionOutcome(LowLevelAction("Place", {"x": 0.5, "y": 0.5}, None, small.key), False,
                                        "Cannot place Mug in Toaster"))
    [toaster] = memory.of_type("Toaster")
    assert small.key not in memory.instances and [b.key for b in memory.of_type("SinkBasin")] == ["SinkBasin#1"]
    assert toaster.position == small.position and toaster.states["taken_for"] == "SinkBasin"
    assert memory.of_type("Cup")[0].container == toaster.key and memory.held == "Mug#1"


def test_the_mapper_fuses_the_old_types_sightings_there_into_the_renamed_receptacle():
    m = mapper()
    here = Pose(0.0, 0.0, 0.0, 0.0)
    toaster_seen = _wall_detection("SinkBasin", slice(62, 66), slice(57, 63))  # 6 pixels of wall 3 m away: 0.3 m
    m.update(observe(here, room_depth()), [toaster_seen])
    (basin,) = m.memory.of_type("SinkBasin")
    refused = ActionOutcome(LowLevelAction("Place", {"x": 0.5, "y": 0.5}, None, basin.key), False,
                            "Cannot place Mug in Toaster")
    m.update(observe(here, room_depth()), [toaster_seen], refused)
    assert not m.memory.of_type("SinkBasin")  # seen again as a basin: the toaster, not a new basin
    (toaster,) = m.memory.of_type("Toaster")
    assert toaster.times_seen == 2 and toaster.states["taken_for"] == "SinkBasin"
    m.update(observe(here, room_depth()), [_wall_detection("SinkBasin", slice(62, 66), slice(5, 11))])  # 2.3 m aside
    assert len(m.memory.of_type("SinkBasin")) == 1 and m.memory.instances[toaster.key].times_seen == 2


def test_a_switch_answered_already_on_by_another_type_names_the_instance_no_larger_than_it():
    """"Toaster|... is already on" for a believed faucet of a toaster's size (TATC 0147: the
    faucet believed on, 30 clicks on the toaster): a toaster, and it is on; for a faucet larger
    than a toaster, a neighbour's. Opens keep their rule: "Drawer|... is already open" for a
    cabinet tells its state (drawers and cabinets stand in rows, of a size)."""
    memory = _scene()
    faucet = memory.add("Faucet", (1.0, 1.0, 0.3), extent=(0.25, 0.2, 0.2), times_seen=2)
    wide = memory.add("Faucet", (2.0, 1.0, 0.3), extent=(0.9, 0.3, 0.4), times_seen=2)
    cabinet = memory.add("Cabinet", (3.0, 0.5, 0.3), extent=(0.6, 0.8, 0.6), times_seen=2)
    for clicked in (faucet, wide):
        apply_outcome(memory, ActionOutcome(LowLevelAction("ToggleOn", {"x": 0.4, "y": 0.5}, clicked.key), False,
                                            "Toaster|+00.98|+00.90|+00.33 is already on"))
    [toaster] = memory.of_type("Toaster")
    assert faucet.key not in memory.instances and toaster.states["is_toggled"] is True
    assert toaster.states["taken_for"] == "Faucet" and toaster.position == faucet.position
    assert memory.instances[wide.key].object_type == "Faucet" and "is_toggled" not in wide.states
    apply_outcome(memory, ActionOutcome(LowLevelAction("Open", {"x": 0.4, "y": 0.5}, cabinet.key), False,
                                        "Drawer|+01.00|+00.50|+00.30 is already open"))
    assert memory.instances[cabinet.key].object_type == "Cabinet" and cabinet.states["is_open"] is True
