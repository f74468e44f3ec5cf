"""An oracle actor: primitive skills (go and look at, pick up, put, open, toggle, slice,
pour) executed as Follower actions, chosen from the simulator's full state.

Every action goes through ``Simulator.step`` (ALFRED names, objectId targets), so what the
actor achieves is what the simulator allows; it records the actions it took. Oracle
experts, episode validation and rule-based Commanders build on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simulator.actions import placement_allowed
from simulator.expert.views import HORIZONS, best_views
from simulator.geometry import CAMERA_HEIGHT, Camera
from simulator.navigation import look_actions, search
from simulator.objects import encloses
from simulator.scenes import cell_center
from simulator.sim import FOLLOWER, Simulator

# ALFRED action names -> TEACh Follower action names (TEACh looks by 30 degrees, not 15)
TEACH_NAMES = {
    "MoveAhead": "Forward", "RotateLeft": "Turn Left", "RotateRight": "Turn Right",
    "LookUp": "Look Up", "LookDown": "Look Down", "PickupObject": "Pickup", "PutObject": "Place",
    "OpenObject": "Open", "CloseObject": "Close", "ToggleObjectOn": "ToggleOn",
    "ToggleObjectOff": "ToggleOff", "SliceObject": "Slice", "Pour": "Pour",
}
TEACH_HORIZONS = (-30.0, 0.0, 30.0, 60.0)
SURFACES = ("CounterTop", "DiningTable", "SideTable", "CoffeeTable", "Desk", "Dresser", "Shelf", "Sofa", "ArmChair", "Bed")


class SkillFailed(Exception):
    """A skill could not be carried out (unreachable object, failed action...)."""


@dataclass
class OracleActor:
    """``vocabulary="teach"`` acts with TEACh's names and looks, and targets interactions
    by a screen click (x, y) that resolves to the intended object, as a TEACh Follower must."""

    sim: Simulator
    max_actions: int = 1000
    vocabulary: str = "alfred"
    actions: list[tuple[str, dict]] = field(default_factory=list)
    failed: int = 0
    trace_states: bool = False  # record the world's state hash after every action
    states: list[str] = field(default_factory=list)

    @property
    def world(self):
        return self.sim.world

    @property
    def held(self) -> str | None:
        return self.world.agents[FOLLOWER].held

    def act(self, action: str, **target) -> None:
        if len(self.actions) >= self.max_actions:
            raise SkillFailed(f"action budget of {self.max_actions} used up")
        if self.vocabulary == "teach":
            action = TEACH_NAMES[action]
            if target:
                target = self._click(action, target)
        result = self.sim.step(FOLLOWER, action, **target)
        self.actions.append((action, target))
        if self.trace_states:
            self.states.append(self.sim.state_hash())
        if not result.success:
            self.failed += 1
            raise SkillFailed(f"{action} {target}: {result.error_message}")

    # ------------------------------------------------------------------ seeing
    def look_at(self, object_id: str, affordance: str | None = None) -> None:
        """Walk (shortest path) to the nearest pose that sees the object, and look at it.

        With the TEACh vocabulary the pose must also offer a click that selects the object
        for an action needing ``affordance``."""
        if object_id in self.world.visible_ids(FOLLOWER) and self._clickable_here(object_id, affordance):
            return
        container = self._closed_container(object_id)
        if container is not None:
            self.open(container)
        horizons = TEACH_HORIZONS if self.vocabulary == "teach" else HORIZONS
        views = best_views(self.world, object_id, horizons)
        if not views:
            raise SkillFailed(f"{object_id} cannot be seen from any navigable pose")
        agent = self.world.agents[FOLLOWER]

        def is_goal(state) -> bool:
            if state not in views:
                return False
            # the frustum's best horizon first, then the others: the first not occluded
            for horizon in sorted(horizons, key=lambda h: (abs(h - views[state]), h)):
                if self._sees_from(object_id, state, horizon) and self._clickable_from(
                    object_id, affordance, state, horizon
                ):
                    views[state] = horizon
                    return True
            return False

        steps = search(self.world.scene, agent.pose(), is_goal)
        if steps is None:
            raise SkillFailed(f"no path to a pose that sees {object_id}")
        for action, _ in steps:
            self.act(action)
        final = steps[-1][1] if steps else (agent.cell, agent.rotation)
        step = 30.0 if self.vocabulary == "teach" else 15.0
        for action in look_actions(agent.horizon, views[final], step):
            self.act(action)

    def _clickable_here(self, object_id: str, affordance: str | None) -> bool:
        if self.vocabulary != "teach":
            return True
        from simulator.targeting import click_for

        return click_for(self.world, FOLLOWER, object_id, affordance) is not None

    def _sees_from(self, object_id: str, state, horizon: float) -> bool:
        """Is the object visible (in view, in reach, not occluded) from this pose?"""
        x, z = cell_center(state[0])
        camera = Camera(x, CAMERA_HEIGHT, z, state[1], horizon, self.world.field_of_view)
        return object_id in self.world.visible_from(camera)

    def _clickable_from(self, object_id: str, affordance: str | None, state, horizon: float) -> bool:
        """Would a click select the object from this (cell, rotation) at this horizon?"""
        if self.vocabulary != "teach":
            return True
        agent = self.world.agents[FOLLOWER]
        saved = (agent.x, agent.z, agent.rotation, agent.horizon)
        agent.x, agent.z = cell_center(state[0])
        agent.rotation, agent.horizon = state[1], horizon
        try:
            return self._clickable_here(object_id, affordance)
        finally:
            agent.x, agent.z, agent.rotation, agent.horizon = saved

    def _click(self, action: str, target: dict) -> dict:
        """A screen point that resolves to the intended object (plus its id, for the record)."""
        from simulator.actions import ACTIONS
        from simulator.targeting import click_for

        object_id = target.get("receptacleObjectId") or target["objectId"]
        point = click_for(self.world, FOLLOWER, object_id, ACTIONS[action].affordance)
        if point is None:
            raise SkillFailed(f"no screen point selects {object_id} for {action}")
        obj = self.world.objects[object_id]
        return {"x": point[0], "y": point[1], "objectId": object_id, "objectType": obj.object_type}

    def _closed_container(self, object_id: str) -> str | None:
        for parent in reversed(self.world.container_chain(object_id)):
            obj = self.world.objects[parent]
            if encloses(obj) and not obj.is_open:
                return parent
        return None

    # ------------------------------------------------------------------ hands
    def pick(self, object_id: str) -> None:
        if self.held == object_id:
            return
        if self.held is not None:
            self.put_down()
        self.look_at(object_id, "pickupable")
        self.act("PickupObject", objectId=object_id)

    def put(self, object_id: str, receptacle_id: str) -> None:
        if self.world.objects[object_id].parent == receptacle_id:
            return
        self.pick(object_id)
        recep = self.world.objects[receptacle_id]
        if encloses(recep) and not recep.is_open:
            self.open(receptacle_id)
        self.look_at(receptacle_id, "receptacle")
        self.act("PutObject", objectId=object_id, receptacleObjectId=receptacle_id)

    def put_down(self, avoid: tuple[str, ...] = ()) -> None:
        """Put what is in hand on the nearest open surface that takes it."""
        held = self.world.objects[self.held]
        candidates = [
            o for o in self.world.objects.values()
            if o.fixed and o.object_type in SURFACES and o.object_id not in avoid
            and placement_allowed(o.object_type, held.object_type)
        ]
        visible = set(self.world.visible_ids(FOLLOWER))
        here = [o for o in candidates if o.object_id in visible]
        target = (here or sorted(candidates, key=lambda o: self.distance_to(o.position)))[:1]
        if not target:
            raise SkillFailed(f"nowhere to put down {held.object_id}")
        self.put(held.object_id, target[0].object_id)

    def distance_to(self, position) -> float:
        """Horizontal distance from the Follower to a point."""
        agent = self.world.agents[FOLLOWER]
        return ((position[0] - agent.x) ** 2 + (position[2] - agent.z) ** 2) ** 0.5

    # ------------------------------------------------------------------ appliances
    def open(self, object_id: str) -> None:
        obj = self.world.objects[object_id]
        if not obj.is_open:
            if obj.object_type == "Microwave" and obj.is_toggled:
                self.switch(object_id, False)
            self.look_at(object_id, "openable")
            self.act("OpenObject", objectId=object_id)

    def close(self, object_id: str) -> None:
        if self.world.objects[object_id].is_open:
            self.look_at(object_id, "openable")
            self.act("CloseObject", objectId=object_id)

    def switch(self, object_id: str, on: bool) -> None:
        if self.world.objects[object_id].is_toggled != on:
            self.look_at(object_id, "toggleable")
            self.act("ToggleObjectOn" if on else "ToggleObjectOff", objectId=object_id)

    def slice(self, object_id: str) -> list[str]:
        """Slice with a knife (picked up and put back down); returns the pieces' ids."""
        target = self.world.objects[object_id]
        before = set(self.world.objects)
        if target.object_type != "Egg":
            knives = self.nearest_of(("Knife", "ButterKnife"))
            if not knives:
                raise SkillFailed("no knife in the scene")
            self.pick(knives[0])
        if self.held == object_id:
            self.put_down()
        self.look_at(object_id, "sliceable")
        self.act("SliceObject", objectId=object_id)
        if self.held is not None:
            self.put_down()
        return sorted(set(self.world.objects) - before)

    def pour_into(self, target_id: str) -> None:
        self.look_at(target_id, "pourable")
        self.act("Pour", objectId=target_id)

    # ------------------------------------------------------------------ finding
    def nearest_of(self, types: tuple[str, ...], exclude: tuple[str, ...] = ()) -> list[str]:
        found = [
            o for o in self.world.objects.values()
            if o.object_type in types and o.object_id not in exclude
        ]
        found.sort(key=lambda o: (self.distance_to(o.position), o.object_id))
        return [o.object_id for o in found]
