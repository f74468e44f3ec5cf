"""The look-alike props drawn apart (``simulator.render.utensils``): cutlery by handle and head,
apples and tomatoes by colour, stem and calyx; each stays inside its box."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.render import CameraPose, Renderer, available
from simulator.render.synthetic import make_object as obj
from simulator.render.synthetic import open_room

pytestmark = pytest.mark.skipif(not available(), reason="no headless OpenGL (EGL) context")

CUTLERY = ("Knife", "ButterKnife", "Fork", "Spoon")
ABOVE = CameraPose(0.0, 1.2, 0.0, 0.0, 89.0)  # straight down at a utensil lying 0.2 m below


@pytest.fixture(scope="module")
def renderer():
    r = Renderer(200, 200)
    yield r
    r.release()


def _draw(renderer, object_type: str, size: tuple[float, float, float]):
    thing = obj(object_type, (0.0, 1.0, 0.0), size)
    return renderer.render(open_room(), [thing], ABOVE)


def test_cutlery_of_one_box_draws_four_different_pictures_within_the_box(renderer):
    """The same 0.3 x 0.02 x 0.04 m box, seen from above: every type's picture differs from every
    other's by more than a handful of pixels, and none draws outside the box's silhouette."""
    box = _draw(renderer, "Box", (0.04, 0.02, 0.3)).instance == 1
    pictures = {}
    for kind in CUTLERY:
        f = _draw(renderer, kind, (0.04, 0.02, 0.3))
        mask = f.instance == 1
        assert mask.sum() > 200 and not (mask & ~box).any()
        pictures[kind] = np.where(mask[..., None], f.rgb.astype(int), 0)
    for i, a in enumerate(CUTLERY):
        for b in CUTLERY[i + 1:]:
            differing = (np.abs(pictures[a] - pictures[b]).sum(axis=2) > 60).sum()
            assert differing > 40, (a, b, differing)


def test_a_knife_has_a_dark_handle_and_a_bright_blade(renderer):
    f = _draw(renderer, "Knife", (0.04, 0.02, 0.3))
    brightness = f.rgb.astype(int).sum(axis=2)[f.instance == 1]
    assert (brightness < 120).mean() > 0.25 and (brightness > 300).mean() > 0.4


def test_apples_and_tomatoes_differ_in_colour_and_by_what_grows_on_top(renderer):
    colours = {}
    for kind in ("Apple", "Tomato"):
        f = _draw(renderer, kind, (0.08, 0.08, 0.08))
        pixels = f.rgb.astype(float)[f.instance == 1]
        colours[kind] = pixels
    green = {k: ((p[:, 1] > p[:, 0]) & (p[:, 1] > 60)).mean() for k, p in colours.items()}
    assert green["Tomato"] > 0.05 and green["Apple"] < 0.01  # the tomato's calyx
    red_a, red_t = (np.median(colours[k], axis=0) for k in ("Apple", "Tomato"))
    assert np.abs(red_a - red_t).sum() > 60  # a deep red apple, an orange-red tomato
