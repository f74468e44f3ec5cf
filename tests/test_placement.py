"""Where a put lands: a free spot, at the side an enclosure opens to."""

from __future__ import annotations

from types import SimpleNamespace

from sim_helpers import MICROWAVE, go_to, kitchen, obj

from simulator.geometry import CAMERA_HEIGHT, Camera
from simulator.objects import SimObject
from simulator.placement import INNER_FLOOR, collides, free_spot, landing, turn_for_put
from simulator.sim import FOLLOWER


def test_a_free_spot_is_the_preferred_one_when_nothing_lies_there():
    assert free_spot((0.0, 1.0, 0.0), (0.1, 0.1, 0.1), ((-0.2, 0.2), (-0.2, 0.2)), []) == (0.0, 0.0)


def test_a_taken_spot_gives_way_to_the_nearest_free_one_across_before_deeper_inside():
    bread = ((0.0, 1.0, 0.0), (0.2, 0.2, 0.2))
    area = ((-0.3, 0.3), (-0.3, 0.3))
    x, z = free_spot((0.0, 1.0, 0.0), (0.1, 0.1, 0.1), area, [bread])
    assert not collides((x, 1.0, z), (0.1, 0.1, 0.1), [bread])
    assert abs(x) + abs(z) <= 0.16  # just beside the bread
    x, z = free_spot((0.0, 1.0, -0.1), (0.1, 0.1, 0.1), area, [bread], back=(2, 1.0))  # back: +z
    assert z <= -0.1 + 1e-9 and not collides((x, 1.0, z), (0.1, 0.1, 0.1), [bread])
    assert free_spot((0.0, 1.0, 0.0), (0.1, 0.1, 0.1), ((-0.05, 0.05), (-0.05, 0.05)), [bread]) == (0.0, 0.0)


def test_a_thing_put_into_a_microwave_beside_what_lies_there_is_not_sunk_into_it_and_is_seen():
    sim = kitchen()
    world = sim.world
    world.objects[MICROWAVE].is_open = True
    go_to(sim, MICROWAVE)
    camera = world.agents[FOLLOWER].camera(world.field_of_view)
    potato, egg = obj(sim, "Potato"), obj(sim, "Egg")
    world.put_in(potato.object_id, MICROWAVE, landing(world, world.objects[MICROWAVE], potato, camera))
    first = landing(world, world.objects[MICROWAVE], egg, camera)
    assert collides(first, egg.size, [(potato.position, potato.size)]) is False
    microwave = world.objects[MICROWAVE]
    for k in (0, 2):  # not pushed into its walls either
        assert abs(first[k] - microwave.position[k]) + egg.size[k] / 2 <= microwave.size[k] / 2 - INNER_FLOOR + 1e-6
    world.put_in(egg.object_id, MICROWAVE, first)
    assert egg.object_id in world.visible_ids(FOLLOWER)


def test_a_put_from_beside_a_microwave_lands_at_its_door_not_at_the_side_wall():
    sim = kitchen()
    world = sim.world
    microwave = world.objects[MICROWAVE]  # over the counter, above the eye: things go to the front
    microwave.is_open = True
    fx, fz = microwave.front
    cx, _, cz = microwave.position
    beside = SimpleNamespace(x=cx + fz, y=CAMERA_HEIGHT, z=cz + fx)  # a metre to the side, level with its middle
    beside.axes = world.agents[FOLLOWER].camera(world.field_of_view).axes
    egg = obj(sim, "Egg")
    x, _, z = landing(world, microwave, egg, beside)
    depth = (x - cx) * fx + (z - cz) * fz
    assert depth > 0.1  # at the open front, where the agent sees it when it comes to take it


def test_a_slice_giving_way_to_a_loaf_in_a_microwave_stays_inside_its_walls():
    # TATC valid_unseen 0245 (FloorPlan10): the microwave over the stove opens to -x, a loaf
    # lies at its front against the +z wall's inside, the slice is put from beside (+z)
    microwave = SimObject("Microwave|+01.04|+01.68|-01.30", "Microwave", (1.04, 1.83, -1.3), (0.4, 0.3, 0.5),
                          fixed=True, levels=(1.769,), front=(-1, 0), is_open=True)
    bread = SimObject("Bread|+00.94|+01.84|-01.21", "Bread", (0.941, 1.844, -1.208), (0.1411, 0.1495, 0.2567),
                      parent=microwave.object_id)
    microwave.children.append(bread.object_id)
    piece = SimObject("Potato|+00.73|+01.04|+00.15|PotatoSliced_0", "PotatoSliced", (0.0, 0.0, 0.0), (0.0704, 0.0595, 0.012))
    world = SimpleNamespace(objects={o.object_id: o for o in (microwave, bread, piece)})
    x, y, z = landing(world, microwave, piece, Camera(0.25, CAMERA_HEIGHT, 0.25, 180.0, 0.0))
    assert not collides((x, y, z), piece.size, [(bread.position, bread.size)])
    for k, at in ((0, x), (2, z)):
        assert abs(at - microwave.position[k]) + piece.size[k] / 2 <= microwave.size[k] / 2 - INNER_FLOOR + 1e-4


def _potato_slice() -> SimObject:
    extent = (0.0704, 0.0595, 0.012)  # thin along its own z: its face looks along z
    return SimObject("Potato|+00.73|+01.04|+00.15|PotatoSliced_0", "PotatoSliced", (0.0, 0.0, 0.0), extent,
                     extent=extent)


def test_a_slice_put_into_a_microwave_turns_its_face_to_the_microwave_front():
    # AI2-THOR puts a thing in at the rotation of the receptacle's box: the slice taken out of
    # FloorPlan10's microwave (opening to -x) shows its face, not its 1 cm edge, from the front
    microwave = SimObject("Microwave|+01.04|+01.68|-01.30", "Microwave", (1.04, 1.83, -1.3), (0.4, 0.3, 0.5),
                          fixed=True, levels=(1.769,), front=(-1, 0), is_open=True)
    piece = _potato_slice()
    turn_for_put(microwave, piece, Camera(0.25, CAMERA_HEIGHT, -1.3, 90.0, 0.0))
    assert piece.rotation == (0.0, 90.0, 0.0)
    assert piece.size[0] < 0.02 and abs(piece.size[2] - 0.0704) < 1e-3  # thin along the line of sight
    facing_z = SimObject("Fridge|+00.97|+00.00|+01.25", "Fridge", (0.97, 0.9, 1.25), (0.7, 1.8, 0.7), fixed=True,
                         front=(0, -1), is_open=True)
    turn_for_put(facing_z, piece, Camera(0.97, CAMERA_HEIGHT, 0.25, 0.0, 0.0))
    assert piece.rotation == (0.0, 0.0, 0.0) and piece.size[2] < 0.02


def test_a_thing_put_on_an_open_surface_takes_the_surface_s_rotation_and_a_thing_unfitted_stays_as_it_is():
    plate = SimObject("Plate|+00.10|+00.95|+00.20", "Plate", (0.1, 0.95, 0.2), (0.22, 0.01, 0.22), rotation=(0.0, 90.0, 0.0))
    piece = _potato_slice()
    turn_for_put(plate, piece, Camera(0.1, CAMERA_HEIGHT, -0.5, 0.0, 30.0))
    assert piece.rotation == (0.0, 90.0, 0.0) and piece.size[0] < 0.02
    box = SimObject("Box|+00.00|+00.10|+00.00", "Box", (0.0, 0.1, 0.0), (0.3, 0.2, 0.1), rotation=(0.0, 30.0, 0.0))
    turn_for_put(plate, box, Camera(0.1, CAMERA_HEIGHT, -0.5, 0.0, 30.0))
    assert box.rotation == (0.0, 30.0, 0.0) and box.size == (0.3, 0.2, 0.1)
