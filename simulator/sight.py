"""What a camera sees in a ``World``, cached: frustum/distance views and visible objects.

Owns the caching around ``simulator.occlusion``: views and visible lists are remembered
per camera (pose and field of view) while the world's geometry stays the same, and the
world's drawn parts are rebuilt only when it changes (then only the objects whose drawn
state changed are recomputed, see ``occlusion.object_parts``). An agent stepping back and
forth, or asking twice in one step (the action, then the metadata), costs one test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.geometry import Camera
from simulator.occlusion import Parts, build_parts, seen

if TYPE_CHECKING:  # pragma: no cover
    from simulator.world import World

MAX_CACHED = 512  # cameras remembered per geometry


class Sight:
    """Per-world caches of views, parts and visible objects."""

    def __init__(self) -> None:
        self._view_version = -1
        self._views: dict[Camera, tuple] = {}
        self._key: tuple | None = None
        self._parts: Parts | None = None
        self._visible: dict[Camera, tuple[str, ...]] = {}

    def view(self, camera: Camera, version: int, compute: Callable[[], tuple]) -> tuple:
        if version != self._view_version:
            self._views.clear()
            self._view_version = version
        found = self._views.get(camera)
        if found is None:
            if len(self._views) >= MAX_CACHED:
                self._views.clear()
            found = self._views[camera] = compute()
        return found

    def parts(self, world: World) -> Parts:
        """The world's drawn parts for its current geometry."""
        self._refresh(world)
        if self._parts is None:
            from simulator.render.world_view import render_objects, room_geometry

            index = {oid: i for i, oid in enumerate(world.objects)}
            parent = np.array([index.get(o.parent, -1) for o in world.objects.values()], dtype=int)
            self._parts = build_parts(render_objects(world), room_geometry(world.scene), parent)
        return self._parts

    def _refresh(self, world: World) -> None:
        key = world.geometry_key()
        if key != self._key:
            self._key = key
            self._parts = None
            self._visible.clear()

    def visible(self, world: World, camera: Camera, view: tuple | None = None) -> list[str]:
        self._refresh(world)
        found = self._visible.get(camera)
        if found is None:
            found = self._compute(world, camera, view)
            if len(self._visible) >= MAX_CACHED:
                self._visible.clear()
            self._visible[camera] = found
        return list(found)

    def _compute(self, world: World, camera: Camera, view: Any) -> tuple[str, ...]:
        ids, distances, in_view = view if view is not None else world.view_from(camera)
        reach = distances <= world.interaction_distance
        if not world.occlusion:  # the box rule: in the frustum, in reach, not hidden or held
            objects = world.objects
            return tuple(
                ids[i] for i in np.nonzero(in_view & reach)[0]
                if objects[ids[i]].held_by is None and not world.is_hidden(ids[i])
            )
        candidates = np.nonzero(reach)[0]
        if len(candidates) == 0:
            return ()
        parts = self.parts(world)
        return tuple(ids[i] for i in seen(camera, parts, candidates, reach))
