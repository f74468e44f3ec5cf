"""Phantoms refuted by looking again (mapping.absence): an instance the frame shows near and
unhidden, with no sighting of its type there, is missed; misses from more poses than it was
seen in forget it."""

from __future__ import annotations

import numpy as np
from planner_scenes import CAMERA

from contracts.belief import ObjectMemory
from contracts.geometry import Pose
from mapping.absence import MIN_MISSES, Absences

WALL = np.full((CAMERA.height, CAMERA.width), 3.0, dtype=np.float32)  # a wall 3 m ahead, behind everything
# poses 1.5 m south of the toaster at (0, 1.5, 1.5), camera at its height, looking at it (+z)
BOX = (0.3, 0.3, 0.3)  # 11 of the frame's 100 pixels across from 1.5 m
LOOKS = [Pose(0.0, 0.0, 0.0, 0.0), Pose(0.25, 0.0, 0.0, 0.0), Pose(-0.25, 0.0, 0.0, 0.0), Pose(0.0, 0.25, 0.0, 0.0)]


def memory_with(times_seen: int = 1, **states) -> ObjectMemory:
    memory = ObjectMemory()
    memory.add("Toaster", (0.0, 1.5, 1.5), extent=BOX, times_seen=times_seen, states=dict(states))
    return memory


def test_a_thing_seen_once_is_forgotten_after_looks_from_two_poses_show_nothing_there():
    memory, absences = memory_with(), Absences()
    assert absences.update(memory, set(), WALL, LOOKS[0], CAMERA) == []
    assert absences.update(memory, set(), WALL, LOOKS[0], CAMERA) == []  # the same pose again: one look
    assert "Toaster#1" in memory.instances
    assert absences.update(memory, set(), WALL, LOOKS[1], CAMERA) == ["Toaster#1"]
    assert MIN_MISSES == 2 and not memory.instances


def test_a_thing_seen_often_needs_more_looks_and_a_sighting_starts_the_count_over():
    memory, absences = memory_with(times_seen=3), Absences()
    for look in LOOKS[:3]:
        absences.update(memory, set(), WALL, look, CAMERA)
    absences.update(memory, {"Toaster#1"}, WALL, LOOKS[3], CAMERA)  # detected again
    for look in LOOKS[:3]:
        absences.update(memory, set(), WALL, look, CAMERA)
    assert "Toaster#1" in memory.instances  # three misses since, seen three times
    assert absences.update(memory, set(), WALL, LOOKS[3], CAMERA) == ["Toaster#1"]


def test_no_miss_when_something_hides_it_it_is_out_of_frame_far_or_a_sighting_of_its_type_is_near():
    memory, absences = memory_with(), Absences()
    hidden = np.full_like(WALL, 0.8)  # a box 0.8 m ahead hides it
    turned = [Pose(0.0, 0.0, 90.0, 0.0), Pose(0.25, 0.0, 90.0, 0.0)]  # looking east: not in the frame
    far = [Pose(0.0, -2.0, 0.0, 0.0), Pose(0.25, -2.0, 0.0, 0.0)]  # 3.5 m away
    for looks, depth in ((LOOKS[:2], hidden), (turned, WALL), (far, WALL * 3)):
        for look in looks:
            assert absences.update(memory, set(), depth, look, CAMERA) == []
    other = memory.add("Toaster", (0.3, 1.5, 1.6), extent=BOX, times_seen=4)  # the sighting fused here
    for look in LOOKS[:2]:
        assert absences.update(memory, {other.key}, WALL, look, CAMERA) == []
    assert "Toaster#1" in memory.instances


def test_what_the_follower_handled_a_hint_an_inferred_faucet_furniture_and_enclosed_things_stay():
    memory = ObjectMemory()
    memory.add("Toaster", (0.0, 1.5, 1.5), extent=BOX, times_seen=1, states={"handled": True})
    memory.add("Mug", (0.1, 1.5, 1.5), extent=BOX, times_seen=0)  # a hint's guess, never seen
    memory.add("Faucet", (-0.1, 1.5, 1.5), extent=BOX, times_seen=1, states={"inferred": True})
    memory.add("CounterTop", (0.0, 1.4, 1.5), extent=(1.0, 0.3, 0.6), times_seen=1)
    cabinet = memory.add("Cabinet", (0.0, 1.5, 1.7), extent=(0.5, 0.5, 0.5), times_seen=1)
    memory.add("Cup", (0.0, 1.5, 1.6), extent=BOX, times_seen=1, container=cabinet.key)
    absences = Absences()
    for look in LOOKS:
        assert absences.update(memory, set(), WALL, look, CAMERA) == []
    assert len(memory.instances) == 6


def test_what_holds_what_the_follower_handled_stays_and_what_lay_in_a_forgotten_instance_lies_in_nothing():
    memory = memory_with()
    memory.add("BreadSliced", (0.0, 1.6, 1.5), extent=BOX, times_seen=1, container="Toaster#1", states={"handled": True})
    for look in LOOKS:
        assert Absences().update(memory, set(), WALL, look, CAMERA) == []
    memory = memory_with()
    bread = memory.add("BreadSliced", (0.0, 1.6, 1.5), extent=BOX, times_seen=1, container="Toaster#1")
    absences = Absences()
    for look in LOOKS[:2]:
        absences.update(memory, set(), WALL, look, CAMERA)
    assert "Toaster#1" not in memory.instances and bread.container is None


def test_a_box_the_frame_cuts_is_not_shown_and_a_sinks_sighting_stands_for_its_basin():
    memory = ObjectMemory()
    memory.add("SinkBasin", (0.0, 1.5, 1.5), extent=(3.5, 0.2, 0.3), times_seen=1)  # wider than the view there
    absences = Absences()
    for look in LOOKS:
        assert absences.update(memory, set(), WALL, look, CAMERA) == []
    memory = ObjectMemory()
    memory.add("SinkBasin", (0.0, 1.5, 1.5), extent=(0.4, 0.3, 0.3), times_seen=1)
    sink = memory.add("Sink", (0.1, 1.4, 1.5), extent=(0.5, 0.3, 0.4), times_seen=3)
    for look in LOOKS:
        assert absences.update(memory, {sink.key}, WALL, look, CAMERA) == []


def test_a_thing_too_small_in_the_frame_for_the_detector_is_not_missed():
    memory = ObjectMemory()
    memory.add("Fork", (0.0, 1.5, 1.5), extent=(0.2, 0.02, 0.05), times_seen=1)  # 2 pixels thick from 1.5 m
    absences = Absences()
    for look in LOOKS:
        assert absences.update(memory, set(), WALL, look, CAMERA) == []
