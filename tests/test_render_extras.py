"""Top-down maps, the benchmark entry point and the EGL failure message."""

from __future__ import annotations

import numpy as np
import pytest

import simulator.render.gl as gl
from contracts.errors import NesyError
from simulator.render import available, top_down
from simulator.render.bench import benchmark
from simulator.render.synthetic import synthetic_kitchen

requires_gl = pytest.mark.skipif(
    not available(),
    reason="no headless OpenGL (EGL) context: apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri",
)


def test_top_down_map_draws_agents_and_highlight():
    room, objects = synthetic_kitchen(seed=0)
    target = next(o for o in objects if o.object_type == "Fridge")
    plain = top_down(room, objects, [(3.0, 1.25, 0.0)], size=256)
    assert plain.shape == (256, 256, 3) and plain.dtype == np.uint8
    two = top_down(room, objects, [(3.0, 1.25, 0.0), (2.0, 3.5, 90.0)], size=256)
    lit = top_down(room, objects, [(3.0, 1.25, 0.0)], highlight=target.object_id, size=256)
    assert (two != plain).any() and (lit != plain).any()
    assert np.array_equal(
        lit, top_down(room, objects, [(3.0, 1.25, 0.0)], highlight=target.object_id, size=256)
    )
    # hidden objects are not drawn
    hidden = [o for o in objects if o.hidden]
    assert hidden and np.array_equal(
        plain, top_down(room, [o for o in objects if not o.hidden], [(3.0, 1.25, 0.0)], size=256)
    )


def test_top_down_rejects_bad_sizes():
    room, objects = synthetic_kitchen(seed=0)
    with pytest.raises(NesyError, match="size"):
        top_down(room, objects, [], size=10)


@requires_gl
def test_benchmark_reports_both_sizes():
    result = benchmark(seconds=0.05, n_small=10)
    assert result["fps_300"] > 0 and result["fps_900"] > 0 and result["objects"] > 40


def test_missing_egl_gives_one_clear_message(monkeypatch):
    import moderngl

    def fail(**kwargs):
        raise RuntimeError("libEGL.so.1: cannot open shared object file")

    monkeypatch.setattr(gl, "_CONTEXT", None)
    monkeypatch.setattr(moderngl, "create_standalone_context", fail)
    with pytest.raises(NesyError, match="libegl1 libegl-mesa0 libgl1-mesa-dri") as info:
        gl.context()
    assert "render: none" in str(info.value)
    assert not gl.available()


def test_an_openable_fixed_object_faces_where_the_agent_stands_to_use_it():
    from simulator.scenes import FixedObject

    def fixed(object_type, pose):
        return FixedObject(f"{object_type}|+01.00|+01.00|+01.00", object_type, (1.0, 1.0, 1.0), (0.5, 0.3, 0.4), pose, True)

    assert fixed("Microwave", (0.0, 1.25, 90, 30)).front == (-1, 0)  # the agent west of it
    assert fixed("Cabinet", (1.25, 2.0, 180, 30)).front == (0, 1)
    assert fixed("Microwave", None).front is None  # no pose: away from the nearest wall
    assert fixed("CounterTop", (0.0, 1.0, 90, 30)).front is None  # only openables turn to the agent


def test_the_renderer_draws_a_door_on_the_side_an_object_faces():
    from simulator.render.meshes import BOX
    from simulator.render.styles import object_rows
    from simulator.render.types import RenderObject

    bounds = (-5.0, 5.0, -5.0, 5.0)  # the nearest wall is south (z = -5)...
    def max_x(front):
        obj = RenderObject("Microwave|+00.00|+01.00|-04.50", "Microwave", (0.0, 1.0, -4.5), (0.5, 0.3, 0.4), front=front)
        return max(float(r[3]) for r in object_rows(obj, bounds)[BOX])  # translation x of its parts

    assert max_x(None) < 0.3  # ...so it faces north by default
    assert max_x((1, 0)) > 0.2  # facing east, its door (and handle) stand out on the east side


def test_a_garbage_can_is_open_at_the_top():
    from simulator.render.meshes import TUBE
    from simulator.render.styles import object_rows
    from simulator.render.types import RenderObject

    can = RenderObject("GarbageCan|+00.00|+00.00|+00.00", "GarbageCan", (0.0, 0.2, 0.0), (0.3, 0.4, 0.3))
    assert len(object_rows(can, (-5.0, 5.0, -5.0, 5.0))[TUBE]) == 1  # what is thrown in shows from above
