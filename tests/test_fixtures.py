"""Fixtures believed from what they are fixed to: a faucet behind each sink basin seen with
none seen near it (mapping.fixtures), clicked inside its projected box (the detector never
shows it), with offsets fitted on ALFRED train data."""

from __future__ import annotations

import numpy as np
import pytest
from planner_scenes import CAMERA, ArrivedNavigator, belief, observation

from contracts.belief import Cell, GridMap, ObjectMemory
from contracts.geometry import Pose, camera_axes, depth_to_points
from contracts.language import Subgoal
from contracts.perception import Detection
from contracts.planning import ActionOutcome, LowLevelAction, PlannedSubgoal
from mapping.fixtures import FAUCET_BACK, FAUCET_RISE, PHANTOM_MISSES, SIDE_STEPS, FaucetBeliefs
from mapping.fixtures_fit import DATA, faucet_offsets
from planner.clicking import believed_detection
from planner.history import History
from planner.skills import InteractSkill


def kitchen() -> ObjectMemory:
    memory = ObjectMemory()
    memory.add("SinkBasin", (0.0, 0.9, 1.0), extent=(0.5, 0.2, 0.4), times_seen=3)
    return memory


def unknown_map() -> GridMap:
    return GridMap.empty((-3.0, -3.0), (60, 60), 0.1)


def test_a_faucet_is_believed_behind_a_basin_seen_with_none():
    memory = kitchen()
    in_view = {"SinkBasin#1": 0.8}
    FaucetBeliefs().update(memory, in_view, Pose(0.2, 0.0, 0.0, 30.0), unknown_map(), CAMERA)  # seen from the south (z < 1)
    (faucet,) = memory.of_type("Faucet")
    assert faucet.position == pytest.approx((0.0, 0.9 + FAUCET_RISE, 1.0 + FAUCET_BACK))
    assert faucet.states["inferred"] and in_view[faucet.key] == 0.8  # in view with its basin
    aside = {"SinkBasin#1": 0.8}
    FaucetBeliefs().update(memory, aside, Pose(0.2, 0.0, 90.0, 30.0), unknown_map(), CAMERA)  # looking east
    assert faucet.key not in aside  # out of the frame: not in view, though the basin is


def test_an_inferred_faucet_whose_click_hit_nothing_to_switch_is_believed_a_step_to_the_side():
    memory = kitchen()
    beliefs, here = FaucetBeliefs(), Pose(0.2, 0.0, 0.0, 30.0)
    beliefs.update(memory, {}, here, unknown_map(), CAMERA)
    (faucet,) = memory.of_type("Faucet")
    click = LowLevelAction("ToggleOn", {"x": 0.5, "y": 0.3}, faucet.key)
    beliefs.missed(memory, ActionOutcome(click, False, "Agent must hold a Knife"))  # another error: no count
    beliefs.missed(memory, ActionOutcome(click, True))
    assert "missed" not in faucet.states
    for side in SIDE_STEPS[1:3]:  # back is +z: the sides are along x
        beliefs.missed(memory, ActionOutcome(click, False, "No object that can be acted on (toggleable) at (0.50, 0.30)"))
        beliefs.update(memory, {}, here, unknown_map(), CAMERA)
        assert faucet.position == pytest.approx((-side, 0.9 + FAUCET_RISE, 1.0 + FAUCET_BACK))


def test_the_basins_front_is_where_the_mapped_floor_is_not_where_the_follower_stands():
    memory = kitchen()
    grid = unknown_map()
    grid.occupancy[:, 34:] = Cell.FREE  # floor east of the basin (x >= 0.4)
    FaucetBeliefs().update(memory, {}, Pose(0.0, 0.0, 0.0, 30.0), grid, CAMERA)  # the Follower stands south of it
    assert memory.of_type("Faucet")[0].position == pytest.approx((-FAUCET_BACK, 0.9 + FAUCET_RISE, 1.0))
    once = ObjectMemory()
    once.add("SinkBasin", (0.0, 0.9, 1.0), times_seen=1)  # seen in one frame only: maybe a phantom
    FaucetBeliefs().update(once, {}, Pose(0.0, 0.0, 0.0, 30.0), grid, CAMERA)
    assert not once.of_type("Faucet")


def test_the_front_is_the_free_side_whose_opposite_is_not_free_floor_along_an_edge_is_not_the_front():
    memory = kitchen()  # basin at x 0, z 1
    grid = unknown_map()
    grid.occupancy[:37, :] = Cell.FREE  # the room south of it (z <= 0.6): its front
    grid.occupancy[:, 34:] = Cell.FREE  # and floor along its east edge (x >= 0.4) ...
    grid.occupancy[:, 24:27] = Cell.FREE  # ... and a little west of it (x -0.6 to -0.4): the counter runs north-south
    FaucetBeliefs().update(memory, {}, Pose(1.0, 0.0, 0.0, 30.0), grid, CAMERA)
    assert memory.of_type("Faucet")[0].position == pytest.approx((0.0, 0.9 + FAUCET_RISE, 1.0 + FAUCET_BACK))


def test_a_detected_faucet_that_clicks_found_nothing_to_switch_on_no_longer_stands_for_the_basins():
    memory = kitchen()
    phantom = memory.add("Faucet", (0.1, 1.0, 0.9), times_seen=2)  # the detector's, beside the basin
    beliefs, here = FaucetBeliefs(), Pose(0.0, 0.0, 0.0, 30.0)
    beliefs.update(memory, {}, here, unknown_map(), CAMERA)
    assert memory.of_type("Faucet") == [phantom]
    click = LowLevelAction("ToggleOn", {"x": 0.5, "y": 0.3}, phantom.key)
    missed = ActionOutcome(click, False, "No object that can be acted on (toggleable) at (0.50, 0.30)")
    for _ in range(PHANTOM_MISSES):
        assert len(memory.of_type("Faucet")) == 1
        beliefs.missed(memory, missed)
        beliefs.update(memory, {}, here, unknown_map(), CAMERA)
    inferred = [f for f in memory.of_type("Faucet") if f.states.get("inferred")]
    assert len(inferred) == 1 and inferred[0].position == pytest.approx((0.0, 0.9 + FAUCET_RISE, 1.0 + FAUCET_BACK))
    assert phantom.key in memory.instances and "fixed_to" not in phantom.states


def test_a_hinted_faucet_moves_behind_the_basin_and_a_seen_one_stops_the_inference():
    memory = kitchen()
    hinted = memory.add("Faucet", (3.0, 0.5, 3.0), confidence=0.3)  # "near the garbage can"
    beliefs = FaucetBeliefs()
    beliefs.update(memory, {"SinkBasin#1": 0.8}, Pose(1.0, 0.0, 1.0, 30.0), unknown_map(), CAMERA)  # seen from the east
    assert len(memory.of_type("Faucet")) == 1 and hinted.position == pytest.approx((-FAUCET_BACK, 0.9 + FAUCET_RISE, 1.0))
    seen = kitchen()
    seen.add("Faucet", (0.0, 1.1, 1.3), times_seen=1)
    FaucetBeliefs().update(seen, {"SinkBasin#1": 0.8}, Pose(0.0, 0.0, 0.0, 30.0), unknown_map(), CAMERA)
    assert len(seen.of_type("Faucet")) == 1 and "inferred" not in seen.of_type("Faucet")[0].states


def _miss(beliefs: FaucetBeliefs, memory: ObjectMemory, faucet) -> None:
    click = LowLevelAction("ToggleOn", {"x": 0.5, "y": 0.3}, faucet.key)
    beliefs.missed(memory, ActionOutcome(click, False, "No object that can be acted on (toggleable) at (0.50, 0.30)"))


def test_a_basin_whose_faucet_was_missed_at_every_offset_is_dropped_while_another_is_believed():
    here = Pose(0.2, 0.0, 0.0, 30.0)
    alone, beliefs = kitchen(), FaucetBeliefs()
    beliefs.update(alone, {}, here, unknown_map(), CAMERA)
    for _ in SIDE_STEPS:
        _miss(beliefs, alone, alone.of_type("Faucet")[0])
        beliefs.update(alone, {}, here, unknown_map(), CAMERA)
    assert len(alone.of_type("Faucet")) == 1  # the only basin keeps a faucet: the offsets start over
    memory = kitchen()
    memory.add("SinkBasin", (2.0, 0.9, 1.0), extent=(0.5, 0.2, 0.4), times_seen=2)  # by the toaster
    beliefs.update(memory, {}, here, unknown_map(), CAMERA)
    phantom = next(f for f in memory.of_type("Faucet") if f.states["fixed_to"] == "SinkBasin#2")
    for _ in SIDE_STEPS:
        _miss(beliefs, memory, phantom)
        beliefs.update(memory, {}, here, unknown_map(), CAMERA)
    assert [f.states["fixed_to"] for f in memory.of_type("Faucet")] == ["SinkBasin#1"]
    beliefs.update(memory, {}, here, unknown_map(), CAMERA)
    assert len(memory.of_type("Faucet")) == 1  # not inferred for it again


def test_an_inferred_faucet_whose_click_switched_a_toaster_is_missed_not_renamed():
    """"Toaster|... is already on" for an inferred faucet: its click met the toaster, and the
    faucet is believed a step aside. Renamed a toaster, it was inferred again at once, and the
    Follower clicked the toaster every step to the failed-action limit (TATC 0216)."""
    from mapping.memory_updates import apply_outcome

    memory, beliefs, here = kitchen(), FaucetBeliefs(), Pose(0.2, 0.0, 0.0, 30.0)
    beliefs.update(memory, {}, here, unknown_map(), CAMERA)
    (faucet,) = memory.of_type("Faucet")
    before = faucet.position
    outcome = ActionOutcome(LowLevelAction("ToggleOn", {"x": 0.5, "y": 0.3}, faucet.key), False,
                            "Toaster|+00.98|+00.90|+00.33 is already on")
    apply_outcome(memory, outcome)
    beliefs.missed(memory, outcome)
    beliefs.update(memory, {}, here, unknown_map(), CAMERA)
    assert memory.of_type("Faucet") == [faucet] and not memory.of_type("Toaster")
    assert faucet.states["missed"] == 1 and faucet.position != before and "is_toggled" not in faucet.states


def test_a_faucet_inferred_for_a_sink_is_dropped_once_a_basin_is_believed():
    memory = ObjectMemory()
    memory.add("Sink", (0.0, 0.9, 1.0), extent=(0.7, 0.2, 0.5), times_seen=2)
    beliefs, here = FaucetBeliefs(), Pose(0.2, 0.0, 0.0, 30.0)
    beliefs.update(memory, {}, here, unknown_map(), CAMERA)
    assert [f.states["fixed_to"] for f in memory.of_type("Faucet")] == ["Sink#1"]
    memory.add("SinkBasin", (0.1, 0.9, 1.0), extent=(0.5, 0.2, 0.4), times_seen=2)
    beliefs.update(memory, {}, here, unknown_map(), CAMERA)
    assert [f.states["fixed_to"] for f in memory.of_type("Faucet")] == ["SinkBasin#1"]


def test_an_inferred_faucet_is_clicked_inside_its_projected_box():
    scene = belief([("Faucet", "Faucet", (0.0, 1.5, 0.8), None, {"inferred": True, "is_toggled": False})])
    stand_in = believed_detection(scene.memory.instances["Faucet"], scene.pose, CAMERA)
    assert stand_in is not None and stand_in.mask.sum() > 0 and stand_in.mask[50, 50]
    assert believed_detection(scene.memory.instances["Faucet"], Pose(0.0, 0.0, 180.0, 0.0), CAMERA) is None  # behind
    depth = np.full((CAMERA.height, CAMERA.width), 2.0, dtype=np.float32)  # the wall, 1.1 m behind the box
    depth[45:55, 45:55] = 0.8  # the tap itself, inside the box
    tap = believed_detection(scene.memory.instances["Faucet"], scene.pose, CAMERA, depth)
    assert tap.mask.sum() == 100 and tap.mask[45:55, 45:55].all() and tap.box == (45, 45, 55, 55)
    step = PlannedSubgoal(Subgoal("ToggleObjectOn", "Faucet"), "Faucet")
    action = InteractSkill(step, ArrivedNavigator(), CAMERA, History()).step(observation(), scene, []).action
    c0, r0, c1, r1 = stand_in.box
    assert action.action == "ToggleOn" and c0 <= action.target["x"] * 100 <= c1 and r0 <= action.target["y"] * 100 <= r1
    scene.memory.instances["Faucet"].states.pop("inferred")  # a faucet believed from a detection: no click without one
    assert InteractSkill(step, ArrivedNavigator(), CAMERA, History()).step(observation(), scene, []).action.action != "ToggleOn"


def test_an_inferred_faucet_is_clicked_where_something_stands_above_the_counter():
    pose = Pose(0.0, 0.0, 0.0, 30.0)
    right, up, forward = camera_axes(pose.heading, pose.horizon)
    rise = CAMERA.pixel_rays() @ np.stack([right, up, forward])[:, 1]  # metres up per metre of depth
    depth = ((0.95 - CAMERA.camera_height) / rise).astype(np.float32)  # a counter top at 0.95 m everywhere
    memory = ObjectMemory()
    faucet = memory.add("Faucet", (0.0, 1.0, 1.0), extent=(0.2, 0.2, 0.2), states={"inferred": True})
    points = depth_to_points(depth, pose, CAMERA)
    tap = (np.abs(points[..., 0]) < 0.04) & (np.abs(points[..., 2] - 1.0) < 0.04)  # a tap stands there, 8 cm tall
    depth[tap] = ((1.03 - CAMERA.camera_height) / rise[tap]).astype(np.float32)
    everything = believed_detection(faucet, pose, CAMERA, depth)
    standing = believed_detection(faucet, pose, CAMERA, depth, standing=True)
    assert everything.mask.sum() > 3 * standing.mask.sum() > 0  # the counter in the box, then the tap alone
    assert tap[standing.mask].mean() > 0.9
    mug = (np.abs(points[..., 0] - 0.1) < 0.03) & (np.abs(points[..., 2] - 1.0) < 0.04)  # a mug beside it
    depth[mug] = ((1.03 - CAMERA.camera_height) / rise[mug]).astype(np.float32)
    with_mug = believed_detection(faucet, pose, CAMERA, depth, standing=True)
    assert with_mug.mask[mug].any()  # standing above the counter, it looks like the tap
    detected = Detection("Mug", 0.9, (0, 0, CAMERA.width, CAMERA.height), mug)
    without = believed_detection(faucet, pose, CAMERA, depth, standing=True, detections=[detected])
    assert not without.mask[mug].any() and tap[without.mask].mean() > 0.9  # a detected mug is not the tap


@pytest.mark.skipif(not (DATA / "alfred_train_masks.jsonl.gz").is_file(), reason=f"ALFRED data not found in {DATA}")
def test_the_offsets_are_the_medians_of_alfred_train_pairs():
    fitted = faucet_offsets()
    assert fitted["pairs"] >= 40
    assert fitted["back"] == pytest.approx(FAUCET_BACK, abs=0.005) and fitted["rise"] == pytest.approx(FAUCET_RISE, abs=0.005)


def test_unmapped_floor_is_no_wall_obstacles_count_against_the_front():
    # FloorPlan10's basin early in TATC valid_unseen 0264: free floor out west and north, the
    # counter (obstacles) out south and just east, the rest of the east not mapped yet. Counted
    # as walls, the unmapped cells tied west with north and the faucet went east, to the side;
    # all five clicks missed and the real basin was given up for a phantom on the toaster
    memory = kitchen()  # basin at x 0, z 1: column 30, row 40
    grid = unknown_map()
    grid.occupancy[39:42, 22:27] = Cell.FREE  # 0.4-0.8 m west
    grid.occupancy[44:49, 29:32] = Cell.FREE  # north
    grid.occupancy[32:37, 29:32] = Cell.OBSTACLE  # south: the counter
    grid.occupancy[39:42, 34:36] = Cell.OBSTACLE  # 0.4-0.5 m east; 0.6-0.8 m not mapped
    FaucetBeliefs().update(memory, {}, Pose(-1.0, 0.0, 90.0, 30.0), grid, CAMERA)
    assert memory.of_type("Faucet")[0].position == pytest.approx((0.0, 0.9 + FAUCET_RISE, 1.0 - FAUCET_BACK))


@pytest.mark.parametrize(("follower", "back"), [((0.0, 2.0), (0.0, -1.0)), ((-1.0, 1.0), (1.0, 0.0))])
def test_a_tie_between_two_open_sides_faces_the_follower(follower, back):
    memory = kitchen()
    grid = unknown_map()
    grid.occupancy[39:42, 22:27] = Cell.FREE  # as open west ...
    grid.occupancy[44:49, 29:32] = Cell.FREE  # ... as north
    FaucetBeliefs().update(memory, {}, Pose(follower[0], follower[1], 0.0, 30.0), grid, CAMERA)
    x, z = back[0] * FAUCET_BACK, 1.0 + back[1] * FAUCET_BACK
    assert memory.of_type("Faucet")[0].position == pytest.approx((x, 0.9 + FAUCET_RISE, z))



def test_a_faucet_detected_at_a_basin_stands_for_it_and_is_clicked_where_believed_without_a_detection():
    """TATC valid_unseen 0003 and 0147: the basin's faucet, detected once 0.15-0.19 m from
    the real one, had to be detected again to be switched (about 2% of close frames show it),
    was "not seen from 3 poses", and a faucet hinted "near the garbage can" was walked to
    instead, to the step limit."""
    from contracts.belief import found_where_believed

    memory = kitchen()
    detected = memory.add("Faucet", (0.0, 1.05, 1.2), times_seen=1)
    hinted = memory.add("Faucet", (3.0, 0.3, 3.0), confidence=0.3, states={"hint_confirmed": 2})
    in_view = {"SinkBasin#1": 0.8}
    FaucetBeliefs().update(memory, in_view, Pose(0.0, 0.0, 0.0, 30.0), unknown_map(), CAMERA)
    assert memory.of_type("Faucet") == [detected] and hinted.key not in memory.instances
    assert detected.states["fixed_to"] == "SinkBasin#1" and detected.states["hint_confirmed"] == 2
    assert in_view[detected.key] == 0.8 and found_where_believed(detected)  # seen with its basin
    scene = belief([("Faucet", "Faucet", (0.0, 1.5, 0.8), None, {"fixed_to": "SinkBasin#1", "is_toggled": False})])
    scene.memory.instances["Faucet"].times_seen = 1
    step = PlannedSubgoal(Subgoal("ToggleObjectOn", "Faucet"), "Faucet")
    action = InteractSkill(step, ArrivedNavigator(), CAMERA, History()).step(observation(), scene, []).action
    assert action.action == "ToggleOn"
    away = kitchen()
    far = away.add("Faucet", (0.0, 1.05, 2.5), times_seen=1)  # beyond FAUCET_NEAR: the fridge's handle
    FaucetBeliefs().update(away, {}, Pose(0.0, 0.0, 0.0, 30.0), unknown_map(), CAMERA)
    assert "fixed_to" not in far.states and not found_where_believed(far)
