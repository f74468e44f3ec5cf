"""Shelves inside fridges and cabinets: fitted from where things rest, drawn, and used by puts."""

from __future__ import annotations

import numpy as np
import pytest
from sim_helpers import COUNTER, FRIDGE, go_to, kitchen, meta, obj

from simulator.calibration import fixedfit
from simulator.calibration.supports import fit_levels, shelf_levels, type_tops
from simulator.placement import INNER_FLOOR, landing
from simulator.render.meshes import BOX
from simulator.render.styles import object_rows
from simulator.render.types import RenderObject
from simulator.sim import FOLLOWER


def test_shelves_are_the_bands_that_hold_enough_of_the_resting_bottoms():
    bottoms = [0.19, 0.20, 0.20, 0.50, 0.50, 0.51, 0.52, 0.76, 0.77, 0.77, 1.1]  # 1.1: one stray thing
    assert shelf_levels(np.array(bottoms)) == pytest.approx([0.192, 0.50, 0.762], abs=1e-3)
    assert shelf_levels(np.array([])) == []


def test_a_fridge_gets_its_shelves_and_what_rests_on_top_of_it_does_not_count(monkeypatch):
    fridge = "Fridge|+00.00|+00.00|+00.00"
    monkeypatch.setattr(fixedfit, "builder_boxes", lambda plan: {
        fridge: {"type": "Fridge", "position": [0.0, 0.9, 0.0], "size": [0.7, 1.8, 0.7]}})
    inside = [(0.1, 0.5, 0.0), (0.0, 0.5, 0.1), (-0.1, 0.51, 0.0), (0.1, 1.2, 0.0), (0.0, 1.21, 0.1), (0.2, 1.2, 0.2)]
    on_top = [(0.0, 1.8, 0.0), (0.1, 1.8, 0.1), (0.2, 1.81, 0.0)]
    fixed: dict = {}
    assert fit_levels(fixed, {"FloorPlanX": inside + on_top}) == 1
    assert fixed["FloorPlanX"][fridge]["levels"] == pytest.approx([0.5, 1.2], abs=2e-3)


def _box_tops(rows: dict) -> list[float]:
    tops = []
    for parts in rows.values():
        for row in parts:
            affine = row[:12].reshape(3, 4)
            tops.append(round(float(affine[1, 3] + abs(affine[1, :3]).sum() / 2), 3))
    return tops


def test_an_open_fridge_draws_its_shelves_at_the_calibrated_levels():
    fridge = RenderObject("Fridge|+00.00|+00.00|+00.00", "Fridge", (0.0, 0.9, 0.0), (0.7, 1.8, 0.7), is_open=True,
                          levels=(0.5, 1.2))
    tops = _box_tops(object_rows(fridge, (-3.0, 3.0, -3.0, 3.0)))
    assert 0.5 in tops and 1.2 in tops
    default = _box_tops(object_rows(RenderObject(fridge.object_id, "Fridge", fridge.center, fridge.size, is_open=True),
                                    (-3.0, 3.0, -3.0, 3.0)))
    assert 0.5 not in default and 1.2 not in default


@pytest.mark.parametrize("levels", [(), (0.5, 0.9, 1.3)])
def test_a_put_into_a_fridge_lands_on_the_shelf_the_agent_looks_at(levels):
    sim = kitchen()
    sim.world.objects[FRIDGE].levels = levels
    apple = obj(sim, "Apple")
    go_to(sim, COUNTER)
    assert sim.step(FOLLOWER, "PickupObject", objectId=apple.object_id).success
    go_to(sim, FRIDGE)
    assert sim.step(FOLLOWER, "OpenObject", objectId=FRIDGE).success
    assert sim.step(FOLLOWER, "PutObject", objectId=apple.object_id, receptacleObjectId=FRIDGE).success
    bottom = apple.position[1] - apple.size[1] / 2
    fridge = sim.world.objects[FRIDGE]
    if levels:
        assert min(abs(bottom - level) for level in levels) < 1e-3
        assert bottom > fridge.position[1] - fridge.size[1] / 2 + 0.1  # not on the floor of the fridge
    else:
        assert bottom == pytest.approx(fridge.position[1] - fridge.size[1] / 2 + INNER_FLOOR, abs=1e-3)
    assert meta(sim, apple.object_id)["parentReceptacles"] == [FRIDGE]
    # AI2-THOR's spot, not the gaze's: across the front in line with the agent (as far as the
    # apple fits inside the walls), in depth between the centre and the front (towards the agent)
    camera = sim.world.agents[FOLLOWER].camera(sim.world.field_of_view)
    axis = 0 if abs(camera.x - fridge.position[0]) * fridge.size[2] >= abs(camera.z - fridge.position[2]) * fridge.size[0] else 2
    side = 2 - axis
    room = fridge.size[side] / 2 - apple.size[side] / 2 - INNER_FLOOR
    eye = (camera.x, 0, camera.z)[side]
    assert apple.position[side] == pytest.approx(np.clip(eye, fridge.position[side] - room, fridge.position[side] + room), abs=1e-3)
    toward = (camera.x, 0, camera.z)[axis] - fridge.position[axis]
    shift = apple.position[axis] - fridge.position[axis]
    assert shift * toward >= 0 and abs(shift) <= fridge.size[axis] / 2


def test_a_put_deep_under_a_shelf_comes_forward_until_the_agent_can_see_its_top():
    from simulator.objects import SimObject
    from simulator.placement import inside_spot

    class Eye:  # the agent 0.25 m in front of a fridge (its front plane at z = -0.35)
        x, y, z = 0.0, 1.576, -0.6

    fridge = SimObject("Fridge|+00.00|+00.00|+00.00", "Fridge", (0.0, 0.9, 0.0), (0.7, 1.8, 0.7), fixed=True)
    assert inside_spot(fridge, Eye, 1.2, (0.1, 0.1, 0.1)) == pytest.approx((0.0, 0.0))  # nothing above: the centre
    # above the eye the shelf's front edge hides all but its front: as far forward as it fits
    assert inside_spot(fridge, Eye, 1.6, (0.1, 0.1, 0.1)) == pytest.approx((0.0, -(0.35 - 0.05 - INNER_FLOOR)))
    fridge.levels = (0.5, 0.9)
    x, z = inside_spot(fridge, Eye, 0.5, (0.1, 0.1, 0.1))
    assert x == 0.0 and -0.35 <= z < 0.0  # came forward
    ray_at_front = Eye.y + (0.6 - Eye.y) * (Eye.z - -0.35) / (Eye.z - z)  # ray eye -> top, at the front plane
    assert ray_at_front == pytest.approx(0.9 - 0.01, abs=1e-6)


def test_a_type_top_is_kept_only_where_it_predicts_held_out_instances_better_than_the_builder(monkeypatch):
    built, fixed = {}, {"FloorPlanX": {}}
    for i, top in enumerate((0.62, 0.64, 0.65, 0.63, 0.66, 0.64)):  # side tables: about 0.64, the builder says 1.0
        oid = f"SideTable|+0{i}.00|+00.00|+00.00"
        built[oid] = {"type": "SideTable", "position": [float(i), 0.5, 0.0], "size": [0.5, 1.0, 0.5]}
        fixed["FloorPlanX"][oid] = {"offset": [0.0, top / 2, 0.0], "size": [0.5, top, 0.5], "support_shift": top - 1.0}
    for i, top in enumerate((0.4, 0.9, 1.4, 0.42, 0.92, 1.38)):  # shelves at many heights, the builder nearly right
        oid = f"Shelf|+0{i}.00|+00.00|+05.00"
        built[oid] = {"type": "Shelf", "position": [float(i), top - 0.045, 5.0], "size": [0.8, 0.05, 0.3]}
        fixed["FloorPlanX"][oid] = {"offset": [0.0, top - 0.025, 0.0], "size": [0.8, 0.05, 0.3], "support_shift": -0.02}
    monkeypatch.setattr(fixedfit, "builder_boxes", lambda plan: built)
    tops = type_tops(fixed)
    assert set(tops) == {"SideTable"} and tops["SideTable"]["top"] == pytest.approx(0.64, abs=0.01)


def test_an_unfitted_instance_gets_its_types_top(monkeypatch):
    from simulator.calibration import table
    from simulator.scenes import _with_type_top

    monkeypatch.setattr(table, "type_top", lambda kind: 0.64 if kind == "SideTable" else None)
    position, size = _with_type_top({"type": "SideTable", "position": [1.0, 0.5, 2.0], "size": [0.5, 1.0, 0.5]})
    assert position[1] + size[1] / 2 == pytest.approx(0.64) and position[1] - size[1] / 2 == pytest.approx(0.0)
    same = {"type": "Shelf", "position": [1.0, 0.9, 2.0], "size": [0.8, 0.05, 0.3]}
    assert _with_type_top(same) == (same["position"], same["size"])


def test_what_lies_in_a_sink_basin_above_a_cabinet_is_not_a_shelf_of_the_cabinet(monkeypatch):
    cabinet, basin = "Cabinet|+00.00|+00.50|+00.00", "Sink|+00.00|+00.90|+00.00|SinkBasin"
    monkeypatch.setattr(fixedfit, "builder_boxes", lambda plan: {
        cabinet: {"type": "Cabinet", "position": [0.0, 0.5, 0.0], "size": [0.6, 0.7, 0.6]},  # 0.15 .. 0.85
        basin: {"type": "SinkBasin", "position": [0.0, 0.82, 0.0], "size": [0.4, 0.2, 0.4]}})  # 0.72 .. 0.92
    on_the_floor = [(0.2, 0.16, 0.2), (-0.2, 0.16, 0.1), (0.1, 0.17, -0.2)]
    in_the_basin = [(0.0, 0.73, 0.0), (0.1, 0.73, 0.05), (-0.1, 0.74, 0.0), (0.05, 0.73, -0.1)]
    fixed: dict = {}
    fit_levels(fixed, {"FloorPlanX": on_the_floor + in_the_basin})
    assert fixed["FloorPlanX"][cabinet]["levels"] == pytest.approx([0.16], abs=2e-3)


def test_a_put_into_an_enclosure_lands_across_its_front_in_line_with_the_agent():
    from simulator.objects import SimObject
    from simulator.placement import inside_spot

    class Eye:  # the agent in front of a fridge (front plane z = -0.35), 0.2 m to the right
        x, y, z = 0.2, 1.576, -0.9

    fridge = SimObject("Fridge|+00.00|+00.00|+00.00", "Fridge", (0.0, 0.9, 0.0), (0.7, 1.8, 0.7), fixed=True)
    x, z = inside_spot(fridge, Eye, 1.2, (0.1, 0.1, 0.1))
    assert (x, z) == pytest.approx((0.2, 0.0))  # in line with the agent, at the centre in depth
    Eye.x = 0.5  # further right than the walls: as far as it fits inside them
    x, _ = inside_spot(fridge, Eye, 1.2, (0.1, 0.1, 0.1))
    assert x == pytest.approx(0.35 - 0.05 - INNER_FLOOR)


def test_a_seat_is_where_things_rest_on_sofas_and_things_put_there_lie_on_it():
    from simulator.calibration.supports import seat_heights

    built = {f"Sofa|+0{i}.00|+00.00|+00.00": {"type": "Sofa", "position": [float(i), 0.45, 0.0], "size": [1.8, 0.9, 0.9]}
             for i in range(5)}
    bottoms = {"FloorPlanX": [(float(i) + dx, 0.42 + dy, 0.0) for i in range(5) for dx, dy in ((0.1, 0.0), (-0.2, 0.01), (0.3, 0.0))]}
    fixedfit_boxes = fixedfit.builder_boxes
    try:
        fixedfit.builder_boxes = lambda plan: built
        seats = seat_heights({}, bottoms)
    finally:
        fixedfit.builder_boxes = fixedfit_boxes
    assert seats["Sofa"]["instances"] == 5 and seats["Sofa"]["seat"] == pytest.approx(0.42 / 0.9, abs=0.01)

    from simulator.calibration.table import seat_fraction

    fraction = seat_fraction("Sofa")
    assert fraction is not None and 0.3 < fraction < 0.6  # the shipped fit: below the back's top
    sofa = RenderObject("Sofa|+00.00|+00.00|+00.00", "Sofa", (0.0, 0.45, 0.0), (1.8, 0.9, 0.9))
    boxes = object_rows(sofa, (-5.0, 5.0, -5.0, 5.0))[BOX]
    tops = [float(r[7] + 0.5 * np.abs(r[4:7]).sum()) for r in boxes]  # y row of each part's affine map
    assert min(abs(top - fraction * 0.9) for top in tops) < 1e-4  # the seat's top (the sofa's bottom is at 0)

    sim = kitchen()  # a put onto a sofa lands on its seat, not on the back's top
    from simulator.objects import SimObject

    couch = SimObject("Sofa|+00.00|+00.00|+00.00", "Sofa", (0.0, 0.45, 0.0), (1.8, 0.9, 0.9), fixed=True)
    apple = obj(sim, "Apple")
    _, y, _ = landing(sim.world, couch, apple, sim.world.agents[FOLLOWER].camera(sim.world.field_of_view))
    assert y - apple.size[1] / 2 == pytest.approx(fraction * 0.9, abs=1e-3)


def test_a_microwave_gets_its_plate_where_things_rest_in_it_and_draws_it_when_open(monkeypatch):
    microwave = "Microwave|+00.00|+00.90|+00.00"
    monkeypatch.setattr(fixedfit, "builder_boxes", lambda plan: {
        microwave: {"type": "Microwave", "position": [0.0, 1.05, 0.0], "size": [0.5, 0.3, 0.4]}})
    inside = [(0.05, 0.99, 0.0), (0.0, 0.99, 0.05), (-0.05, 1.0, 0.0)]  # 9 cm above its bottom, not 3
    fixed: dict = {}
    assert fit_levels(fixed, {"FloorPlanX": inside}) == 1
    assert fixed["FloorPlanX"][microwave]["levels"] == pytest.approx([0.99], abs=2e-3)
    drawn = RenderObject(microwave, "Microwave", (0.0, 1.05, 0.0), (0.5, 0.3, 0.4), is_open=True, levels=(0.99,))
    assert 0.99 in _box_tops(object_rows(drawn, (-3.0, 3.0, -3.0, 3.0)))


def test_a_wall_hung_shelf_without_recorded_contents_gets_its_groups_fitted_height(monkeypatch):
    from simulator.calibration.supports import level_group, type_levels

    built, fixed = {}, {"FloorPlanX": {}}
    for i, above in enumerate((0.06, 0.07, 0.08, 0.07, 0.065)):  # wall cabinets: bottom at 1.9
        oid = f"Cabinet|+0{i}.00|+02.15|+00.00"
        built[oid] = {"type": "Cabinet", "position": [float(i), 2.15, 0.0], "size": [0.5, 0.5, 0.4]}
        fixed["FloorPlanX"][oid] = {"levels": [1.9 + above]}
    for i in range(3):  # too few base cabinets for a group of their own
        oid = f"Cabinet|+0{i}.00|+00.40|+03.00"
        built[oid] = {"type": "Cabinet", "position": [float(i), 0.4, 3.0], "size": [0.5, 0.5, 0.4]}
        fixed["FloorPlanX"][oid] = {"levels": [0.15]}
    monkeypatch.setattr(fixedfit, "builder_boxes", lambda plan: built)
    levels = type_levels(fixed)
    assert set(levels) == {"Cabinet (wall)"} and levels["Cabinet (wall)"]["above_bottom"] == pytest.approx(0.07)
    assert level_group("Cabinet", 1.9) == "Cabinet (wall)" and level_group("Cabinet", 0.15) == "Cabinet"

    from simulator.scenes import load_scene  # the shipped fit, in a floor plan with no data

    microwave = load_scene("FloorPlan10").fixed_objects["Microwave|+01.04|+01.68|-01.30"]
    bottom = microwave.position[1] - microwave.size[1] / 2
    assert len(microwave.levels) == 1 and 0.05 < microwave.levels[0] - bottom < 0.12  # on its plate


def test_a_put_onto_a_shelf_above_the_eye_comes_forward_until_its_front_face_shows():
    from simulator.objects import SimObject
    from simulator.placement import inside_spot

    class Eye:  # the agent 0.6 m in front of a wall cabinet (its front plane at z = -0.2)
        x, y, z = 0.0, 1.576, -0.8

    cabinet = SimObject("Cabinet|+00.00|+02.15|+00.00", "Cabinet", (0.0, 2.15, 0.0), (0.5, 0.5, 0.4), fixed=True)
    height, shelf = 0.1, 1.97
    _, z = inside_spot(cabinet, Eye, shelf, (0.1, height, 0.1))
    front_face = z - 0.05
    assert -0.2 <= front_face < 0.0  # came forward from the centre, still inside
    ray_at_front = Eye.y + (shelf + height - Eye.y) * (Eye.z - -0.2) / (Eye.z - front_face)
    assert ray_at_front >= shelf - 1e-6  # the ray to the face's top clears the shelf's front edge
    _, z_low = inside_spot(cabinet, Eye, 1.2, (0.1, height, 0.1))  # below the eye, nothing above it
    assert z_low == pytest.approx(0.0)


def test_what_is_thrown_into_a_garbage_can_rests_inside_it_on_its_bottom():
    from simulator.calibration.table import seat_fraction
    from simulator.objects import SimObject

    fraction = seat_fraction("GarbageCan")
    assert fraction is not None and fraction < 0.3  # the shipped fit: near the bottom, not on the rim
    sim = kitchen()
    can = SimObject("GarbageCan|+00.00|+00.00|+00.00", "GarbageCan", (0.0, 0.2, 0.0), (0.3, 0.4, 0.3), fixed=True)
    apple = obj(sim, "Apple")
    _, y, _ = landing(sim.world, can, apple, sim.world.agents[FOLLOWER].camera(sim.world.field_of_view))
    assert y - apple.size[1] / 2 == pytest.approx(fraction * 0.4, abs=1e-3)


def test_a_cabinets_floor_lies_under_its_lowest_shelf_when_that_is_below_its_box():
    closed = RenderObject("Cabinet|+00.00|+00.48|+00.00", "Cabinet", (0.0, 0.48, 0.0), (0.5, 0.5, 0.4))
    assert 0.23 in _box_tops(object_rows(closed, (-3.0, 3.0, -3.0, 3.0)))  # just under the box (0.23)
    low = RenderObject("Cabinet|+00.00|+00.48|+00.00", "Cabinet", (0.0, 0.48, 0.0), (0.5, 0.5, 0.4), levels=(0.214,))
    tops = _box_tops(object_rows(low, (-3.0, 3.0, -3.0, 3.0)))
    assert 0.214 in tops and 0.23 not in tops  # where its things rest, not sunk into it


def test_each_sofa_gets_its_own_seat_below_what_lies_on_its_arms_and_it_is_drawn_there():
    from simulator.calibration.supports import fit_seats
    from simulator.calibration.table import seat_top

    built = {f"Sofa|+0{3 * i}.00|+00.00|+00.00": {"type": "Sofa", "position": [3.0 * i, 0.45, 0.0], "size": [1.8, 0.9, 0.9]}
             for i in range(2)}
    seat_y = {0: 0.25, 1: 0.5}  # two assets: a low seat and a high one
    bottoms = {"FloorPlanX": [(3.0 * i + dx, seat_y[i] + dy, 0.0) for i in range(2)
                              for dx, dy in ((0.1, 0.0), (-0.2, 0.01), (0.3, 0.0), (0.5, 0.005))]
               + [(0.8, 0.62, 0.0), (-0.8, 0.625, 0.0)]}  # remotes on the low sofa's arms
    fixedfit_boxes = fixedfit.builder_boxes
    try:
        fixedfit.builder_boxes = lambda plan: built
        fixed: dict = {}
        assert fit_seats(fixed, bottoms) == 2
    finally:
        fixedfit.builder_boxes = fixedfit_boxes
    levels = {oid: entry["levels"] for oid, entry in fixed["FloorPlanX"].items()}
    assert levels["Sofa|+00.00|+00.00|+00.00"] == [pytest.approx(0.25, abs=0.002)]
    assert levels["Sofa|+03.00|+00.00|+00.00"] == [pytest.approx(0.5, abs=0.002)]
    assert seat_top("Sofa", 0.0, 0.9, (0.25,)) == 0.25  # the instance's own seat, not the type's
    assert seat_top("Sofa", 0.0, 0.9) == pytest.approx(0.9 * seat_fraction_of("Sofa"))

    sofa = RenderObject("Sofa|+00.00|+00.00|+00.00", "Sofa", (0.0, 0.45, 0.0), (1.8, 0.9, 0.9), levels=(0.25,))
    boxes = object_rows(sofa, (-5.0, 5.0, -5.0, 5.0))[BOX]
    tops = [float(r[7] + 0.5 * np.abs(r[4:7]).sum()) for r in boxes]
    assert min(abs(top - 0.25) for top in tops) < 1e-4  # the seat's top at the instance's seat


def seat_fraction_of(object_type: str) -> float:
    from simulator.calibration.table import seat_fraction

    fraction = seat_fraction(object_type)
    assert fraction is not None
    return fraction
