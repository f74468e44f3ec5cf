"""Dialogue location hints (``mapping.hints``): the hints of one answer believed together,
a hint about something shut in followed from place to place as each is looked into in vain,
and when a frame shows inside an open place. (The mapper's hint tests, on its own updates,
are in ``test_semantic_map_hints.py``.)"""

from __future__ import annotations

from contracts.belief import ObjectMemory
from contracts.geometry import CameraIntrinsics, Pose
from contracts.language import LocationHint
from mapping.hints import LOOKED_INTO, LOOKS, HintBook, shows_inside

CAMERA = CameraIntrinsics(120, 120, 90.0, 1.5)


def _cabinets_right_of_a_stove() -> tuple[ObjectMemory, list[str]]:
    """A stove 2 m ahead of a Follower at the origin facing +z, and three cabinets: right of
    the stove but ahead of the Follower; right of both; on the Follower's right only."""
    memory = ObjectMemory()
    memory.add("StoveBurner", (0.0, 0.9, 2.0), times_seen=1)
    keys = [memory.add("Cabinet", where, times_seen=1).key for where in ((1.5, 1.0, 2.0), (2.0, 1.0, 0.5), (1.0, 1.0, -0.5))]
    return memory, keys


def _plate_right_of_the_stove_and_of_you():
    """The book after "The plate is in the cabinet right of the stove. The plate is in the
    cabinet to your right.", and the plate it believes: (memory, cabinets, book, plate)."""
    memory, cabinets = _cabinets_right_of_a_stove()
    book = HintBook()
    book.add([LocationHint("Plate", "in", "Cabinet", "right", "StoveBurner"),
              LocationHint("Plate", "in", "Cabinet", "right", "you")], Pose(0.0, 0.0, 0.0, 0.0))
    book.resolve(memory)
    (plate,) = memory.of_type("Plate")
    return memory, cabinets, book, plate


def test_the_hints_of_one_answer_are_believed_together():
    _, (ahead, both, mine), _, plate = _plate_right_of_the_stove_and_of_you()
    assert plate.container == both  # alone, "to your right" would pick the nearer cabinet on that side


def test_a_hinted_object_not_in_its_opened_place_is_believed_in_the_next_that_fits():
    memory, (ahead, both, mine), book, plate = _plate_right_of_the_stove_and_of_you()
    book.resolve(memory)  # not shown inside: nothing learnt
    assert plate.container == both
    book.resolve(memory, shown=lambda place: place.key == both)
    assert plate.container == both
    book.resolve(memory, shown=lambda place: place.key == both)  # shown for a second frame, no plate in it
    # next: the other place the first hint fits, then those only the last one fits
    assert plate.container == ahead and plate.position == memory.instances[ahead].position
    assert memory.of_type("Plate") == [plate]  # moved, not a second one
    for place in (ahead, mine):
        for _ in range(LOOKS):
            book.resolve(memory, shown=lambda p, key=place: p.key == key)
    assert plate.container == mine and not book.trails  # nothing else fits: the trail ends


def test_a_trail_ends_when_the_object_is_seen_in_its_place_or_a_new_answer_comes():
    memory, (ahead, both, mine) = _cabinets_right_of_a_stove()
    book = HintBook()
    here = Pose(0.0, 0.0, 0.0, 0.0)
    book.add([LocationHint("Plate", "in", "Cabinet", "right", "you")], here)
    book.resolve(memory)
    assert memory.of_type("Plate")[0].container == mine
    memory.add("Plate", (1.0, 1.0, -0.5), times_seen=1, container=mine)  # found in it (a new instance)
    for _ in range(LOOKS):
        book.resolve(memory, shown=lambda place: place.key == mine)
    assert not book.trails and memory.of_type("Plate")[0].container == mine
    book.add([LocationHint("Plate", "in", "Cabinet", "right", "StoveBurner")], here)
    book.resolve(memory)
    assert book.trails["Plate"].place == ahead  # the unseen one is believed there now


def test_a_new_answer_does_not_send_the_follower_back_to_a_place_it_looked_into():
    memory, (ahead, both, mine) = _cabinets_right_of_a_stove()
    book = HintBook()
    book.add([LocationHint("Plate", "in", "Cabinet", "right", "StoveBurner")], Pose(0.0, 0.0, 0.0, 0.0))
    book.resolve(memory)
    (plate,) = memory.of_type("Plate")
    for _ in range(LOOKS):
        book.resolve(memory, shown=lambda place: place.key == ahead)
    assert plate.container == both
    # "in the cabinet in front of you", said where only the cabinet looked into is in front
    book.add([LocationHint("Plate", "in", "Cabinet", "front", "you")], Pose(1.5, 2.5, 180.0, 0.0))
    book.resolve(memory)
    assert plate.container != ahead


def test_an_open_cabinet_shows_its_inside_only_near_and_with_its_middle_well_in_the_frame():
    memory = ObjectMemory()
    cabinet = memory.add("Cabinet", (0.0, 1.2, 1.0), times_seen=1)
    eye = Pose(0.0, 0.0, 0.0, 0.0)
    assert not shows_inside(cabinet, 1.0, eye, CAMERA)  # closed
    cabinet.states["is_open"] = True
    assert shows_inside(cabinet, 1.0, eye, CAMERA)
    assert not shows_inside(cabinet, LOOKED_INTO + 0.5, eye, CAMERA)  # too far to see into
    low = memory.add("Cabinet", (0.0, 0.3, 1.0), times_seen=1, states={"is_open": True})
    assert not shows_inside(low, 1.0, eye, CAMERA)  # under the counter, at the frame's bottom edge
    assert shows_inside(low, 1.0, Pose(0.0, 0.0, 0.0, 30.0), CAMERA)  # looking down at it


def test_above_and_below_a_landmark_are_the_places_higher_and_lower_nearest_across():
    memory = ObjectMemory()
    memory.add("Microwave", (0.0, 1.1, 2.0), times_seen=1)
    low_near, high_far, high_near, low_far = [memory.add("Cabinet", where, times_seen=1).key for where in (
        (0.1, 0.4, 2.0), (1.2, 1.9, 2.0), (0.2, 1.9, 2.0), (0.9, 0.4, 2.0))]
    for direction, expected in (("above", high_near), ("below", low_near)):
        book = HintBook()
        book.add([LocationHint("Mug", "in", "Cabinet", direction, "Microwave")], Pose(0.0, 0.0, 0.0, 0.0))
        book.resolve(memory)
        assert memory.instances[book.trails["Mug"].instance].container == expected


def test_the_upper_or_lower_cabinet_is_one_at_that_level_and_any_when_none_is_known():
    memory = ObjectMemory()
    low, high = [memory.add("Cabinet", where, times_seen=1).key for where in ((1.0, 0.5, 1.0), (1.5, 1.9, 1.5))]
    for level, expected in (("upper", high), ("lower", low), (None, low)):  # no level: the nearer one
        book = HintBook()
        book.add([LocationHint("Plate", "in", "Cabinet", "right", "you", level)], Pose(0.0, 0.0, 0.0, 0.0))
        book.resolve(memory)
        assert memory.instances[book.trails["Plate"].instance].container == expected
        del memory.instances[book.trails["Plate"].instance]
    del memory.instances[low]
    book = HintBook()
    book.add([LocationHint("Plate", "in", "Cabinet", "right", "you", "lower")], Pose(0.0, 0.0, 0.0, 0.0))
    book.resolve(memory)  # no lower cabinet known: the level does not rule the others out
    assert memory.instances[book.trails["Plate"].instance].container == high


def test_a_hint_about_what_the_follower_cut_in_a_place_confirms_its_own_belief():
    """The slices the Follower cut in the microwave, not seen since: "the bread slice is in the
    microwave" is about them, and the microwave opened without them seen does not send them
    to another microwave (TATC valid_unseen 0120)."""
    memory = ObjectMemory()
    here = memory.add("Microwave", (0.0, 1.8, 1.0), times_seen=3)
    there = memory.add("Microwave", (1.0, 1.2, 1.5), times_seen=1)
    cut = memory.add("BreadSliced", here.position, container=here.key, states={"inferred": True})
    book = HintBook()
    book.add([LocationHint("BreadSliced", "in", "Microwave")], Pose(0.0, 0.0, 0.0, 0.0))
    for _ in range(LOOKS + 1):
        book.resolve(memory, shown=lambda place: True)
    assert memory.of_type("BreadSliced") == [cut] and cut.container == here.key and cut.position == here.position
    assert cut.states["hint_confirmed"] == 1  # one answer confirmed it (the planner may try it again)
    cut.states.pop("inferred")  # believed from an earlier hint instead: followed on
    book.add([LocationHint("BreadSliced", "in", "Microwave")], Pose(0.0, 0.0, 0.0, 0.0))
    for _ in range(LOOKS + 1):
        book.resolve(memory, shown=lambda place: True)
    assert memory.of_type("BreadSliced") == [cut] and cut.container == there.key


def test_a_hint_placing_a_thing_believed_from_hints_alone_again_is_counted():
    """TATC valid_seen 0048: a plate believed on a counter from the Commander's hint, not seen
    there from two walks, was found at the third; each new answer placing it there is counted
    (the planner tries again what it gave up on where the Commander says it is)."""
    memory = ObjectMemory()
    memory.add("CounterTop", (1.0, 0.9, 1.0), times_seen=2)
    for answers in (1, 2, 3):
        book = HintBook()
        book.add([LocationHint("Plate", "on", "CounterTop")], Pose(0.0, 0.0, 0.0, 0.0))
        book.resolve(memory)
        (plate,) = memory.of_type("Plate")
        assert plate.states.get("hint_confirmed", 0) == answers - 1  # the first answer made it


def test_a_plate_seen_on_the_counter_over_the_hinted_cabinet_is_not_the_one_in_it():
    memory = ObjectMemory()
    low = memory.add("Cabinet", (1.0, 0.45, 1.0), extent=(0.6, 0.7, 0.5), times_seen=1).key
    memory.add("Cabinet", (2.0, 0.45, 1.0), extent=(0.6, 0.7, 0.5), times_seen=1)
    book = HintBook()
    book.add([LocationHint("Plate", "in", "Cabinet", None, None)], Pose(1.0, 0.0, 0.0, 0.0))
    book.resolve(memory)
    (hinted,) = memory.of_type("Plate")
    assert hinted.container == low
    memory.add("Plate", (1.05, 0.95, 1.0), extent=(0.25, 0.03, 0.25), times_seen=1)  # on the counter above it
    book.resolve(memory)
    assert book.trails["Plate"].place == low  # the trail goes on: the hinted plate is still looked for in it
    memory.add("Plate", (0.95, 0.2, 1.05), extent=(0.25, 0.03, 0.25), times_seen=1)  # on the cabinet's floor
    book.resolve(memory)
    assert not book.trails  # found in it
