"""World state: the scene's objects, the agents, containment, and what each agent sees.

The ``World`` owns the single source of truth for where every object is (in exactly one
place: a receptacle, the floor, or an agent's hand) and keeps the numpy arrays used for
visibility in sync with it. It applies no rules of its own: actions and state changes
live in ``simulator.actions`` and ``simulator.rules``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from simulator.geometry import (
    CAMERA_HEIGHT,
    Camera,
    box_distances,
    boxes_in_frustum,
    heading_vector,
)
from simulator.objects import SimObject, encloses
from simulator.scenes import Scene, to_cell
from simulator.sight import Sight

AGENT_Y = 0.9009992  # AI2-THOR's agent position y in iTHOR scenes (ALFRED's TeleportFull y)


@dataclass
class AgentState:
    """An agent's pose on the grid and what it holds."""

    x: float
    z: float
    rotation: int = 0
    horizon: float = 0.0
    held: str | None = None
    embodied: bool = True  # the Commander's camera floats: it neither blocks nor is blocked

    def camera(self, field_of_view: float) -> Camera:
        return Camera(self.x, CAMERA_HEIGHT, self.z, self.rotation, self.horizon, field_of_view)

    @property
    def cell(self) -> tuple[int, int]:
        return to_cell(self.x, self.z)

    def pose(self) -> tuple[float, float, int, float]:
        return (self.x, self.z, self.rotation, self.horizon)


class World:
    """Objects + agents of one episode, with containment bookkeeping and visibility."""

    def __init__(
        self,
        scene: Scene,
        objects: dict[str, SimObject],
        agents: list[AgentState],
        field_of_view: float = 90.0,
        interaction_distance: float = 1.5,
        occlusion: bool = False,
    ) -> None:
        self.scene = scene
        self.objects = objects
        self.agents = agents
        self.field_of_view = field_of_view
        self.interaction_distance = interaction_distance
        # occlusion by the drawn shapes of other objects and walls (simulator.occlusion);
        # off by default until ALFRED's recorded experts replay with it (docs/simulator.md)
        self.occlusion = occlusion
        # ALFRED's bookkeeping of objects cleaned in a basin, heated in a microwave, cooled in a fridge
        self.cleaned: set[str] = set()
        self.heated: set[str] = set()
        self.cooled: set[str] = set()
        self._arrays_stale = True
        self._ids: list[str] = []
        self._centers = np.zeros((0, 3))
        self._sizes = np.zeros((0, 3))
        self._version = 0  # bumped by every change of place (move, add, remove, hand, receptacle)
        self._sight = Sight()
        self._shaped: list[SimObject] | None = None  # objects whose state may change their shape

    # ------------------------------------------------------------------ containment
    def container_chain(self, object_id: str) -> list[str]:
        """The object's parent, grandparent, ... (empty if on the floor or held)."""
        chain = []
        parent = self.objects[object_id].parent
        while parent is not None:
            chain.append(parent)
            parent = self.objects[parent].parent
        return chain

    def is_hidden(self, object_id: str) -> bool:
        """Inside (at any depth) a closed enclosing receptacle (fridge, drawer, box...)."""
        for parent_id in self.container_chain(object_id):
            parent = self.objects[parent_id]
            if encloses(parent) and not parent.is_open:
                return True
        return False

    def holder(self, object_id: str) -> int | None:
        """The agent holding this object or an ancestor of it."""
        for oid in [object_id, *self.container_chain(object_id)]:
            if self.objects[oid].held_by is not None:
                return self.objects[oid].held_by
        return None

    def detach(self, object_id: str) -> None:
        """Take an object out of wherever it is (receptacle, floor or hand)."""
        obj = self.objects[object_id]
        if obj.parent is not None:
            self.objects[obj.parent].children.remove(object_id)
            obj.simbot_last_parent_receptacle = obj.parent
            obj.parent = None
        if obj.held_by is not None:
            self.agents[obj.held_by].held = None
            obj.held_by = None
        self._version += 1

    def put_in(self, object_id: str, receptacle_id: str, position: tuple[float, float, float]) -> None:
        self.detach(object_id)
        obj = self.objects[object_id]
        obj.parent = receptacle_id
        self.objects[receptacle_id].children.append(object_id)
        self._version += 1
        self.move_to(object_id, position)

    def give_to(self, object_id: str, agent_index: int) -> None:
        self.detach(object_id)
        obj = self.objects[object_id]
        obj.held_by = agent_index
        self.agents[agent_index].held = object_id
        self._version += 1
        self.move_to(object_id, self.hand_position(agent_index))

    def move_to(self, object_id: str, position: tuple[float, float, float]) -> None:
        """Move an object and, rigidly, everything inside it."""
        obj = self.objects[object_id]
        delta = np.subtract(position, obj.position)
        stack = [object_id]
        while stack:
            current = self.objects[stack.pop()]
            current.position = tuple(float(v) for v in np.add(current.position, delta))
            stack.extend(current.children)
        self._arrays_stale = True
        self._version += 1

    def add(self, obj: SimObject) -> None:
        self.objects[obj.object_id] = obj
        self._arrays_stale = True
        self._version += 1

    def remove(self, object_id: str) -> None:
        self.detach(object_id)
        for child in list(self.objects[object_id].children):
            self.detach(child)
        del self.objects[object_id]
        self._arrays_stale = True
        self._version += 1

    def hand_position(self, agent_index: int) -> tuple[float, float, float]:
        agent = self.agents[agent_index]
        dx, dz = heading_vector(agent.rotation)
        return (agent.x + 0.4 * dx, CAMERA_HEIGHT - 0.3, agent.z + 0.4 * dz)

    # ------------------------------------------------------------------ visibility
    def _arrays(self) -> tuple[list[str], np.ndarray, np.ndarray]:
        if self._arrays_stale:
            self._ids = list(self.objects)
            self._shaped = None
            self._centers = np.array([self.objects[i].position for i in self._ids], dtype=float).reshape(-1, 3)
            self._sizes = np.array([self.objects[i].size for i in self._ids], dtype=float).reshape(-1, 3)
            self._arrays_stale = False
        return self._ids, self._centers, self._sizes

    def view(self, agent_index: int) -> tuple[list[str], np.ndarray, np.ndarray]:
        """(ids, distance from the camera to each object's box, in-frustum flags)."""
        return self.view_from(self.agents[agent_index].camera(self.field_of_view))

    def view_from(self, camera: Camera) -> tuple[list[str], np.ndarray, np.ndarray]:
        """``view`` from any camera (cached per camera while nothing moves)."""
        ids, centers, sizes = self._arrays()
        return self._sight.view(camera, self._version, lambda: (
            ids, box_distances(camera.position, centers, sizes), boxes_in_frustum(camera, centers, sizes)))

    def visible_ids(self, agent_index: int, view: tuple | None = None) -> list[str]:
        """Objects the agent can see and reach: in view, within range, not hidden or held,
        and not occluded (``view``: this agent's ``view()`` result, if already computed)."""
        return self.visible_from(self.agents[agent_index].camera(self.field_of_view), view)

    def visible_from(self, camera: Camera, view: tuple | None = None) -> list[str]:
        """``visible_ids`` from any camera (e.g. a pose the agent could take); objects in the
        frustum and within reach are tested for occlusion against the drawn shapes of
        everything else (``simulator.occlusion``). Cached per camera and world state."""
        return self._sight.visible(self, camera, view)

    def geometry_key(self) -> tuple:
        """Changes whenever anything that shapes what is drawn may have changed: a place
        (``_version``) or a state that changes an object's shape."""
        if self._arrays_stale or self._shaped is None:
            self._shaped = [o for o in self.objects.values() if o.openable or o.toggleable or o.sliceable or o.fillable]
        return (self._version, tuple([(o.is_open, o.is_toggled, o.is_sliced, o.is_filled) for o in self._shaped]))

    # ------------------------------------------------------------------ navigation
    def free_cell(self, cell: tuple[int, int], moving_agent: int) -> bool:
        if cell not in self.scene.navigable:
            return False
        if not self.agents[moving_agent].embodied:
            return True
        return all(
            i == moving_agent or not a.embodied or a.cell != cell for i, a in enumerate(self.agents)
        )

    # ------------------------------------------------------------------ hashing
    def state_hash(self) -> str:
        h = hashlib.sha256()
        for oid in sorted(self.objects):
            h.update(repr(self.objects[oid].state_tuple()).encode())
        for agent in self.agents:
            h.update(repr((agent.pose(), agent.held)).encode())
        h.update(repr((sorted(self.cleaned), sorted(self.heated), sorted(self.cooled))).encode())
        return h.hexdigest()
