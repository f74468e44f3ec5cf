"""Egocentric rendering (RGB, depth, instance ids) and top-down maps for the simulator.

``Renderer(width, height).render(room, objects, camera) -> Frames`` draws with moderngl on
a headless EGL context; ``top_down(room, objects, agents, highlight, size)`` draws a map
with OpenCV (no GL). Data types are in ``types``; conventions in docs/rendering.md.
``world_view`` adapts a simulator ``World`` (the renderer itself never imports the
simulator); ``agreement`` measures symbolic vs rendered visibility.
"""

from .gl import RenderUnavailable, available
from .renderer import Renderer
from .topdown import top_down
from .types import CameraPose, Frames, RenderObject, RoomGeometry

__all__ = [
    "CameraPose",
    "Frames",
    "RenderObject",
    "RenderUnavailable",
    "Renderer",
    "RoomGeometry",
    "available",
    "top_down",
]
