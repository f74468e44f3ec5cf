"""The mapper's location hints on its own updates (``mapping.semantic`` with
``mapping.hints``): a hint waits for its place, picks the place on the side it names, moves
on from places the navigator gave up on. (The hint book alone: ``test_hints.py``.)"""

from __future__ import annotations

from test_semantic_map import mapper, observe, room_depth

from contracts.geometry import Pose
from contracts.language import LocationHint
from mapping.hints import HINT_CONFIDENCE


def test_a_location_hint_is_believed_below_sightings_once_its_place_is_known():
    m = mapper()
    hint = LocationHint("Knife", "in", "Drawer", "left", "Stove")
    belief = m.update(observe(Pose(0.0, 0.0, 0.0, 0.0)), [], hints=[hint])
    assert not belief.memory.of_type("Knife") and [h for h, _ in m.hints.pending] == [hint]  # no drawer known yet
    belief.memory.add("Drawer", (2.0, 0.5, 1.0), times_seen=1)
    belief.memory.add("Drawer", (-2.0, 0.5, 1.0), times_seen=1)
    belief = m.update(observe(Pose(-1.5, 0.0, 0.0, 0.0)), [])
    (knife,) = belief.memory.of_type("Knife")
    assert knife.confidence == HINT_CONFIDENCE and knife.container == "Drawer#2" and knife.times_seen == 0
    assert not m.hints.pending


def test_a_hint_from_the_followers_side_picks_the_place_on_that_side_as_it_stood_when_it_heard_it():
    m = mapper()
    m.memory.add("Cabinet", (-1.0, 1.0, 0.2), times_seen=1)  # to the left of a Follower facing +z (the nearest)
    m.memory.add("Cabinet", (1.5, 1.0, 0.0), times_seen=1)  # to its right
    m.memory.add("Microwave", (0.0, 1.0, 1.0), times_seen=1)
    hints = [LocationHint("Plate", "in", "Cabinet", "right", "you"), LocationHint("StoveBurner", "near", "Microwave")]
    belief = m.update(observe(Pose(0.0, 0.0, 0.0, 0.0)), [], hints=hints)
    (plate,) = belief.memory.of_type("Plate")
    assert plate.container == "Cabinet#2"
    (burner,) = belief.memory.of_type("StoveBurner")
    assert burner.container is None and burner.position == (0.0, 1.0, 1.0)  # near the microwave, not in it
    m.update(observe(Pose(0.0, 0.0, 180.0, 0.0)), [], hints=[LocationHint("Plate", "in", "Cabinet", "right", "you")])
    assert plate.container == "Cabinet#1"  # turned around: its right is the other side


def test_a_hint_from_a_landmark_picks_the_place_on_that_side_seen_from_the_landmarks_front():
    for side, wanted in (("left", "Cabinet#1"), ("right", "Cabinet#2")):
        m = mapper()
        m.update(observe(Pose(0.0, 0.0, 0.0, 0.0), room_depth()), [])  # the floor up to a wall 3 m ahead
        m.memory.add("Cabinet", (-1.0, 0.5, 3.1), times_seen=1)  # left of the stove, seen from the room
        m.memory.add("Cabinet", (0.6, 0.5, 3.1), times_seen=1)  # right of it, and nearer
        m.memory.add("StoveBurner", (-0.1, 0.9, 3.1), times_seen=1)
        m.memory.add("StoveBurner", (0.1, 0.9, 3.1), times_seen=1)  # the burners are one landmark
        here = Pose(1.0, 0.0, 270.0, 0.0)  # facing -x: its own right is the stove's left, which must not matter
        belief = m.update(observe(here), [], hints=[LocationHint("Plate", "in", "Cabinet", side, "StoveBurner")])
        (plate,) = belief.memory.of_type("Plate")
        assert plate.container == wanted, side


def test_a_hint_about_an_instance_seen_there_makes_no_unseen_twin():
    m = mapper()
    m.memory.add("SinkBasin", (0.5, 0.85, 1.0), extent=(0.5, 0.2, 0.4), times_seen=1)
    mug = m.memory.add("Mug", (0.55, 0.9, 1.05), extent=(0.1, 0.1, 0.1), times_seen=2, confidence=0.9)
    belief = m.update(observe(Pose(0.0, 0.0, 0.0, 0.0)), [], hints=[LocationHint("Mug", "in", "SinkBasin")])
    assert belief.memory.of_type("Mug") == [mug] and not m.hints.pending


def test_a_hinted_place_the_navigator_gave_up_on_sends_the_hint_to_the_next_place_that_fits():
    m = mapper()
    m.memory.add("Cabinet", (1.5, 1.8, 0.0), times_seen=1)  # to the right of a Follower facing +z
    m.memory.add("Cabinet", (2.5, 1.8, 0.0), times_seen=1)  # further right
    belief = m.update(observe(Pose(0.0, 0.0, 0.0, 0.0)), [], hints=[LocationHint("Plate", "in", "Cabinet", "right", "you")])
    (plate,) = belief.memory.of_type("Plate")
    assert plate.container == "Cabinet#1"
    m.navigator().gave_up.add("Cabinet#1")  # no goal pose showed it (a twin of a cabinet seen since)
    for _ in range(2):
        m.update(observe(Pose(0.0, 0.0, 0.0, 0.0)), [])
    assert plate.container == "Cabinet#2"


def test_a_hinted_object_the_navigator_gave_up_on_there_is_believed_in_the_next_place_that_fits_once():
    m = mapper()
    for x in (1.5, 2.5, 3.5):  # three cabinets to the right of a Follower facing +z
        m.memory.add("Cabinet", (x, 1.8, 0.0), times_seen=1)
    belief = m.update(observe(Pose(0.0, 0.0, 0.0, 0.0)), [], hints=[LocationHint("Plate", "in", "Cabinet", "right", "you")])
    (plate,) = belief.memory.of_type("Plate")
    assert plate.container == "Cabinet#1"
    navigator = m.navigator()
    navigator.gave_up.add(plate.key)  # no goal pose around the cabinet showed the plate
    navigator.missed_at[plate.key] = (plate.position[0], plate.position[2])
    m.update(observe(Pose(0.0, 0.0, 0.0, 0.0)), [])
    assert plate.container == "Cabinet#2"
    for _ in range(3):  # given up where it was, not where it is believed now: it stays
        m.update(observe(Pose(0.0, 0.0, 0.0, 0.0)), [])
    assert plate.container == "Cabinet#2"
