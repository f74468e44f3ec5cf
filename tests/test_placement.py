"""Where a put lands: a free spot, at the side an enclosure opens to."""

from __future__ import annotations

from types import SimpleNamespace

from sim_helpers import MICROWAVE, go_to, kitchen, obj

from simulator.geometry import CAMERA_HEIGHT, Camera
from simulator.objects import SimObject
from simulator.placement import INNER_FLOOR, collides, free_spot, landing, put_landing
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
    x, y, z = landing(_world(microwave, bread, piece), microwave, piece, Camera(0.25, CAMERA_HEIGHT, 0.25, 180.0, 0.0))
    assert not collides((x, y, z), piece.size, [(bread.position, bread.size)])
    for k, at in ((0, x), (2, z)):
        assert abs(at - microwave.position[k]) + piece.size[k] / 2 <= microwave.size[k] / 2 - INNER_FLOOR + 1e-4


def _potato_slice() -> SimObject:
    extent = (0.0704, 0.0595, 0.012)  # thin along its own z: its face looks along z
    return SimObject("Potato|+00.73|+01.04|+00.15|PotatoSliced_0", "PotatoSliced", (0.0, 0.0, 0.0), extent,
                     extent=extent)


def _floorplan10_microwave() -> SimObject:
    return SimObject("Microwave|+01.04|+01.68|-01.30", "Microwave", (1.04, 1.83, -1.3), (0.4, 0.3, 0.5),
                     fixed=True, levels=(1.769,), front=(-1, 0), is_open=True)


def _world(*objects: SimObject) -> SimpleNamespace:
    return SimpleNamespace(objects={o.object_id: o for o in objects}, scene=SimpleNamespace(name="FloorPlan10"))


def test_a_slice_put_into_a_microwave_turns_its_face_to_the_microwave_front():
    # AI2-THOR puts a thing in at the rotation of the receptacle's box: the slice taken out of
    # FloorPlan10's microwave (opening to -x) shows its face, not its 1 cm edge, from the front
    microwave, piece = _floorplan10_microwave(), _potato_slice()
    put_landing(_world(microwave, piece), microwave, piece, Camera(0.25, CAMERA_HEIGHT, -1.3, 90.0, 0.0))
    assert piece.rotation == (0.0, 90.0, 0.0)
    assert piece.size[0] < 0.02 and abs(piece.size[2] - 0.0704) < 1e-3  # thin along the line of sight
    fridge = SimObject("Fridge|+00.97|+00.00|+01.25", "Fridge", (0.97, 0.9, 1.25), (0.7, 1.8, 0.7), fixed=True,
                       front=(0, -1), is_open=True)
    put_landing(_world(fridge, piece), fridge, piece, Camera(0.97, CAMERA_HEIGHT, 0.25, 0.0, 0.0))
    assert piece.rotation == (0.0, 0.0, 0.0) and piece.size[2] < 0.02


def test_a_slice_pushed_deep_inside_when_turned_to_the_front_turns_a_quarter_more_to_fit_near_it():
    # TATC valid_unseen 0264: a tomato and a bowl at the microwave's front; the slice turned
    # face-on was pushed behind them, out of every pose's sight; a quarter turn more fits at the front
    microwave, piece = _floorplan10_microwave(), _potato_slice()
    tomato = SimObject("Tomato|+00.93|+01.83|-01.19", "Tomato", (0.931, 1.832, -1.191), (0.1215, 0.1266, 0.1226),
                       parent=microwave.object_id)
    bowl = SimObject("Bowl|+00.96|+01.79|-01.39", "Bowl", (0.963, 1.794, -1.386), (0.1867, 0.05, 0.1904),
                     parent=microwave.object_id)
    microwave.children += [tomato.object_id, bowl.object_id]
    camera = Camera(0.0, CAMERA_HEIGHT, -1.25, 90.0, -15.0)
    x, y, z = put_landing(_world(microwave, tomato, bowl, piece), microwave, piece, camera)
    assert piece.rotation == (0.0, 180.0, 0.0) and piece.size[2] < 0.02  # edge-on, between the two
    assert x < 0.95 and not collides((x, y, z), piece.size, [(o.position, o.size) for o in (tomato, bowl)])


def test_a_thing_put_on_an_open_surface_takes_the_surface_s_rotation_and_a_thing_unfitted_stays_as_it_is():
    plate = SimObject("Plate|+00.10|+00.95|+00.20", "Plate", (0.1, 0.95, 0.2), (0.22, 0.01, 0.22), rotation=(0.0, 90.0, 0.0))
    piece = _potato_slice()
    camera = Camera(0.1, CAMERA_HEIGHT, -0.5, 0.0, 30.0)
    put_landing(_world(plate, piece), plate, piece, camera)
    assert piece.rotation == (0.0, 90.0, 0.0) and piece.size[0] < 0.02
    box = SimObject("Box|+00.00|+00.10|+00.00", "Box", (0.0, 0.1, 0.0), (0.3, 0.2, 0.1), rotation=(0.0, 30.0, 0.0))
    put_landing(_world(plate, box), plate, box, camera)
    assert box.rotation == (0.0, 30.0, 0.0) and box.size == (0.3, 0.2, 0.1)
