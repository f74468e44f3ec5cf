"""Double-door cabinets: the two coinciding Cabinet objects become two doors side by side."""

from simulator.scenes import load_scene
from simulator.scenes.twins import spread_twins, twin_pairs

CABINET = ([0.5, 0.4, 2.0], [0.4, 0.5, 0.5])  # depth along x, front along z


def _spread(boxes, pivots, poses=None):
    types = dict.fromkeys(boxes, "Cabinet")
    return spread_twins(boxes, types, pivots, poses or dict.fromkeys(boxes))


def test_each_twin_moves_out_to_its_pivots_side_and_the_two_meet_in_the_middle():
    boxes = {"A": ([0.5, 0.4, 2.02], [0.4, 0.5, 0.5]), "B": ([0.49, 0.41, 2.0], [0.4, 0.5, 0.5])}
    pivots = {"A": (0.5, 0.4, 2.02), "B": (0.49, 0.41, 2.0)}
    out = _spread(boxes, pivots, {"A": (1.25, 2.0, 270, 30), "B": (1.25, 2.0, 270, 30)})  # the agent stands at +x
    (ca, sa), (cb, sb) = out["A"], out["B"]
    assert ca[2] > cb[2]  # A's pivot has the larger z
    assert abs((ca[2] - sa[2] / 2) - (cb[2] + sb[2] / 2)) < 1e-3  # they meet
    assert abs(ca[2] - 2.26) < 1e-3 and sa[2] == 0.5  # half a width out from the middle (2.01)
    assert ca[0] == 0.5 and cb[0] == 0.49  # depth and height untouched
    assert out["A"][1][:2] == [0.4, 0.5]


def test_a_twin_stops_half_way_to_the_next_cabinet_along_the_front():
    boxes = {"A": ([0.5, 0.4, 2.02], [0.4, 0.5, 0.5]), "B": ([0.5, 0.4, 2.0], [0.4, 0.5, 0.5]),
             "next": ([0.5, 0.4, 2.61], [0.4, 0.5, 0.5])}
    pivots = {k: tuple(v[0]) for k, v in boxes.items()}
    out = _spread(boxes, pivots)
    centre, size = out["A"]
    assert abs(centre[2] + size[2] / 2 - (2.01 + 2.61) / 2) < 1e-3  # its outer edge: half-way
    assert out["next"] == boxes["next"]


def test_cabinets_that_do_not_coincide_and_other_types_are_left_alone():
    apart = {"A": ([0.5, 0.4, 2.0], [0.4, 0.5, 0.5]), "B": ([0.5, 0.4, 2.5], [0.4, 0.5, 0.5])}
    assert twin_pairs(apart, dict.fromkeys(apart, "Cabinet")) == []
    drawers = {"A": ([0.5, 0.4, 2.0], [0.4, 0.15, 0.5]), "B": ([0.5, 0.41, 2.01], [0.4, 0.15, 0.5])}
    assert spread_twins(drawers, dict.fromkeys(drawers, "Drawer"), {k: tuple(v[0]) for k, v in drawers.items()},
                        dict.fromkeys(drawers)) == drawers


def test_floor_plan_424s_double_door_cabinet_no_longer_hides_its_inside():
    scene = load_scene("FloorPlan424")
    a = scene.fixed_objects["Cabinet|-00.49|+00.41|+02.86"]
    b = scene.fixed_objects["Cabinet|-00.50|+00.38|+02.84"]
    assert a.position[2] - a.size[2] / 2 >= b.position[2] + b.size[2] / 2 - 1e-3  # side by side
    assert a.position[2] > b.position[2]  # each on its pivot's side
