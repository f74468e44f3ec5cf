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


def test_a_garbage_can_is_open_at_the_top():
    from simulator.render.meshes import TUBE
    from simulator.render.styles import object_rows
    from simulator.render.types import RenderObject

    can = RenderObject("GarbageCan|+00.00|+00.00|+00.00", "GarbageCan", (0.0, 0.2, 0.0), (0.3, 0.4, 0.3))
    assert len(object_rows(can, (-5.0, 5.0, -5.0, 5.0))[TUBE]) == 1  # what is thrown in shows from above
