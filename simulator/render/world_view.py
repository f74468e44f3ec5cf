"""The adapter from a simulator ``World`` to the renderer's plain data, and a frame cache.

Owns the translation only: the scene's ``RoomGeometry`` (one per floor plan, cached so the
renderer's own per-room caches hit), one ``RenderObject`` per world object (box, states,
``hidden`` = inside a closed enclosing receptacle or held by an agent) and the agent's
``CameraPose``. ``WorldRenderer`` renders an agent's view and remembers the last frames of
each agent, so asking twice for an unchanged view (the observation, then a click) draws
once. The renderer itself never imports the simulator; this module reads a ``World`` by
duck typing and imports nothing from it at import time.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from .types import CameraPose, Frames, RenderObject, RoomGeometry

if TYPE_CHECKING:  # pragma: no cover
    from simulator.world import World

_ROOMS: dict[tuple, RoomGeometry] = {}
WALL_THIN = 0.15  # a fixed object this thin (x or z) hangs on a wall: its centre marks the wall
MAX_GROW = 1.0  # metres the drawn walls may move out beyond the scene's extent


def render_bounds(scene: Any) -> tuple[float, float, float, float]:
    """Where the walls are drawn: the scene's extent grown (by at most ``MAX_GROW``) to
    hold the footprint of every fixed object. The extent is derived from where agents
    stood (docs/scenes.md), so counters, beds and bathtubs along a wall may reach past
    it; walls drawn there would cut them. Thin wall-mounted things (windows, paintings,
    switches) only need their centre inside, since the extent already passes through it."""
    xmin, xmax, zmin, zmax = (float(b) for b in scene.bounds)
    gx0, gx1, gz0, gz1 = xmin, xmax, zmin, zmax
    for obj in scene.fixed_objects.values():
        (x, _, z), (sx, _, sz) = obj.position, obj.size
        hx, hz = (0.0, 0.0) if min(sx, sz) <= WALL_THIN else (sx / 2, sz / 2)
        gx0, gx1 = min(gx0, x - hx), max(gx1, x + hx)
        gz0, gz1 = min(gz0, z - hz), max(gz1, z + hz)
    return (
        round(max(gx0, xmin - MAX_GROW), 3),
        round(min(gx1, xmax + MAX_GROW), 3),
        round(max(gz0, zmin - MAX_GROW), 3),
        round(min(gz1, zmax + MAX_GROW), 3),
    )


def room_geometry(scene: Any) -> RoomGeometry:
    """The static room of a ``Scene`` (navigable cells, walls at ``render_bounds``), one
    instance per floor plan so that the renderer's per-room caches hit."""
    key = (scene.name, tuple(scene.bounds), len(scene.navigable))
    room = _ROOMS.get(key)
    if room is None:
        if len(_ROOMS) > 256:
            _ROOMS.clear()
        room = _ROOMS[key] = RoomGeometry(frozenset(scene.navigable), render_bounds(scene))
    return room


def _hidden(world: World, object_id: str) -> bool:
    """Inside a closed fridge/drawer/... (at any depth), or in an agent's hand (itself or
    the thing it is in)."""
    return world.objects[object_id].held_by is not None or world.is_hidden(object_id) or (
        world.holder(object_id) is not None
    )


CUT_BY_BASINS = ("CounterTop", "Sink")  # tops that AI2-THOR cuts open where a basin is set in
BASINS = ("SinkBasin",)


def basin_holes(world: World) -> dict[str, tuple[tuple[float, float, float, float], ...]]:
    """objectId of a counter or sink -> the footprints of the basins set in it (those whose
    footprint overlaps its own, at any height: a basin hangs below the top it is set in),
    clipped to it."""
    from .fixtures import footprint, overlap

    basins = [footprint(o.position, o.size) for o in world.objects.values() if o.object_type in BASINS]
    out: dict[str, tuple[tuple[float, float, float, float], ...]] = {}
    if not basins:
        return out
    for o in world.objects.values():
        if o.object_type not in CUT_BY_BASINS:
            continue
        own = footprint(o.position, o.size)
        holes = [cut for cut in (overlap(own, b) for b in basins) if cut is not None]
        if holes:
            out[o.object_id] = tuple(sorted(tuple(round(v, 4) for v in cut) for cut in holes))
    return out


UNDER_COUNTERS = ("Cabinet", "Drawer", "Dishwasher")  # built in below a counter top


def counter_cuts(world: World) -> dict[str, tuple[tuple[float, float, float, float], ...]]:
    """objectId of a counter top -> the footprints of the cabinets and drawers below its top
    (their centre under it, their footprint overlapping its own), clipped to it: the
    counter's body is not drawn there, or it would fill the cabinets it stands on."""
    from .fixtures import footprint, overlap

    under = [o for o in world.objects.values() if o.object_type in UNDER_COUNTERS]
    out: dict[str, tuple[tuple[float, float, float, float], ...]] = {}
    for o in world.objects.values():
        if o.object_type != "CounterTop" or not under:
            continue
        own, top = footprint(o.position, o.size), o.position[1] + o.size[1] / 2
        cuts = [overlap(own, footprint(c.position, c.size)) for c in under if c.position[1] < top]
        cuts = [cut for cut in cuts if cut is not None]
        if cuts:
            out[o.object_id] = tuple(sorted(tuple(round(v, 4) for v in cut) for cut in cuts))
    return out


def standing_cuts(world: World) -> dict[str, tuple[tuple[float, float, float, float], ...]]:
    """objectId of a counter top -> the squares of AI2-THOR's agent radius around the places
    its agent could stand (the floor plan's recorded reachable positions) that overlap it,
    clipped to it. AI2-THOR finds those places by casting the agent's capsule, so no counter
    reaches into them at any height; our counters are boxes, and an L-shaped one's box
    covers the floor in its inner corner, hiding what lies in front of the cabinets there."""
    counters = tuple((o.object_id, o.position, o.size) for o in world.objects.values() if o.object_type == "CounterTop")
    return _standing_cuts(world.scene.recorded_reachable, counters) if counters else {}


@functools.lru_cache(maxsize=64)
def _standing_cuts(reachable: frozenset, counters: tuple) -> dict[str, tuple[tuple[float, float, float, float], ...]]:
    from simulator.scenes import cell_center
    from simulator.scenes.layout import AGENT_RADIUS

    from .fixtures import footprint, overlap

    r = AGENT_RADIUS
    spots = [cell_center(c) for c in sorted(reachable)]
    out = {}
    for oid, position, size in counters:
        own = footprint(position, size)
        cuts = [cut for x, z in spots if (cut := overlap(own, (x - r, x + r, z - r, z + r))) is not None]
        if cuts:
            out[oid] = tuple(sorted(tuple(round(v, 4) for v in cut) for cut in cuts))
    return out


def render_objects(world: World) -> tuple[RenderObject, ...]:
    """One ``RenderObject`` per world object, in ``world.objects`` order (instance k is the
    k-th of them, 1-based). Hidden: inside a closed enclosing receptacle, or held. Counters
    and sinks have the basins set in them cut out of their tops (``basin_holes``), counters
    the cabinets and drawers under them out of their bodies (``counter_cuts``) and the
    places the agent stands out of both (``standing_cuts``)."""
    holes, cuts = basin_holes(world), counter_cuts(world)
    for oid, more in standing_cuts(world).items():
        holes[oid] = holes.get(oid, ()) + more
        cuts[oid] = cuts.get(oid, ()) + more
    out = []
    for oid, o in world.objects.items():
        out.append(
            RenderObject(
                oid,
                o.object_type,
                o.position,
                o.size,
                o.is_open,
                o.is_toggled,
                o.is_dirty,
                o.is_filled,
                o.is_cooked,
                o.is_sliced,
                _hidden(world, oid),
                o.liquid if o.is_filled else None,
                tuple(o.rotation) if o.extent is not None else (0.0, 0.0, 0.0),
                o.extent,
                o.levels,
                holes.get(oid, ()),
                cuts.get(oid, ()),
                o.front,
            )
        )
    return tuple(out)


def camera_pose(world: World, agent_index: int) -> CameraPose:
    """The agent's egocentric camera (AI2-THOR: camera height 1.576 m)."""
    from simulator.geometry import CAMERA_HEIGHT

    agent = world.agents[agent_index]
    return CameraPose(
        float(agent.x),
        CAMERA_HEIGHT,
        float(agent.z),
        float(agent.rotation),
        float(agent.horizon),
        float(world.field_of_view),
    )


class WorldRenderer:
    """Renders agents' views of a ``World`` with one lazily created ``Renderer``.

    ``frames(world, agent)`` returns the cached frames of that agent when neither the
    camera nor any object changed since its last call; the cached arrays are read-only
    (copy before changing them).
    """

    def __init__(self, width: int = 300, height: int = 300) -> None:
        from .renderer import check_size

        check_size(width, height)
        self.width, self.height = width, height
        self._renderer: Any = None
        self._last: dict[int, tuple[tuple, Frames]] = {}
        self.draws = 0  # frames actually rendered (cache misses)

    @property
    def renderer(self) -> Any:
        """The ``Renderer`` (created on first use; raises ``RenderUnavailable`` without EGL)."""
        if self._renderer is None:
            from .renderer import Renderer

            self._renderer = Renderer(self.width, self.height)
        return self._renderer

    def frames(self, world: World, agent_index: int) -> Frames:
        room = room_geometry(world.scene)
        objects = render_objects(world)
        camera = camera_pose(world, agent_index)
        key = (room, objects, camera)
        last = self._last.get(agent_index)
        if last is not None and last[0] == key:
            return last[1]
        frames = self.renderer.render(room, objects, camera)
        self.draws += 1
        for array in (frames.rgb, frames.depth, frames.instance):
            array.setflags(write=False)
        self._last[agent_index] = (key, frames)
        return frames

    def frames_at(self, world: World, pose: tuple[float, float, int, float]) -> Frames:
        """Frames from any agent pose (x, z, rotation, horizon), e.g. a SearchObject view."""
        from simulator.geometry import CAMERA_HEIGHT

        camera = CameraPose(float(pose[0]), CAMERA_HEIGHT, float(pose[1]), float(pose[2]), float(pose[3]),
                            float(world.field_of_view))
        self.draws += 1
        return self.renderer.render(room_geometry(world.scene), render_objects(world), camera)

    def forget(self) -> None:
        """Drop the cached frames (e.g. at a new episode)."""
        self._last.clear()

    def release(self) -> None:
        """Free the GPU objects (the process-wide GL context stays)."""
        if self._renderer is not None:
            self._renderer.release()
            self._renderer = None
        self._last.clear()
