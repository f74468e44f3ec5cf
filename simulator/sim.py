"""The ``Simulator``: the API every agent, runner, test and benchmark talks to.

Two agents share a world, as in TEACh: agent 0 is the Commander (a floating camera that
may look around, talk, and, through the tasks package, run Progress Check and
SearchObject) and agent 1 is the Follower (moves, interacts, talks). ALFRED episodes use
the Follower alone. ``step`` never raises on an agent's action: a bad action returns
``success=False`` with an AI2-THOR-like ``errorMessage`` and leaves the state unchanged.

What an agent observes (``contracts.observation.Observation``) is what a robot would: its
pose as odometry relative to its pose at ``reset``, whether its hand is full, the result of
its last action and the new utterances, plus egocentric RGB and depth frames when
rendering is on (``render: egl``). Ground truth is in ``metadata()``, ``world`` and
``instance_frame()`` (the instance buffer and its objectIds), for oracles, clicks and
evaluation only (Follower-side oracles read it through ``simulator.oracle.OracleAccess``).
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from contracts.errors import NesyError
from contracts.geometry import CameraIntrinsics, relative_pose
from contracts.observation import COMMANDER, FOLLOWER, Observation, Utterance
from simulator import targeting
from simulator.actions import ACTIONS, INTERACTION_OPS, apply
from simulator.geometry import CAMERA_HEIGHT
from simulator.start_state import StartState, build_world
from simulator.world import World

if TYPE_CHECKING:  # pragma: no cover
    from simulator.render.types import Frames
    from simulator.render.world_view import WorldRenderer

__all__ = ["COMMANDER", "FOLLOWER", "Observation", "Simulator", "SimulatorSettings", "StepResult", "Utterance"]


@dataclass
class StepResult:
    success: bool
    error_message: str
    observation: Observation


RENDER_MODES = ("none", "egl")


@dataclass(frozen=True)
class SimulatorSettings:
    field_of_view: float = 90.0
    interaction_distance: float = 1.5
    occlusion: bool = False  # symbolic visibility also tests occlusion by drawn shapes (simulator.occlusion)
    render: str = "none"  # none: symbolic observations only; egl: RGB + depth frames
    width: int = 300
    height: int = 300


class Simulator:
    """The built-in THOR-compatible simulator (symbolic observations, or rendered frames
    with ``render: egl``)."""

    def __init__(self, settings: Any = None) -> None:
        self.settings = SimulatorSettings(
            field_of_view=getattr(settings, "field_of_view", 90.0),
            interaction_distance=getattr(settings, "interaction_distance", 1.5),
            occlusion=bool(getattr(settings, "occlusion", False)),
            render=getattr(settings, "render", "none"),
            width=getattr(settings, "width", 300),
            height=getattr(settings, "height", 300),
        )
        if self.settings.render not in RENDER_MODES:
            raise NesyError(
                f"simulator.render must be one of {', '.join(RENDER_MODES)}, got {self.settings.render!r}"
            )
        self._view: WorldRenderer | None = None
        if self.settings.render == "egl":
            from simulator.render.world_view import WorldRenderer

            # the GL context and the Renderer are created on the first frame (in the thread
            # that renders); a missing EGL raises RenderUnavailable there
            self._view = WorldRenderer(self.settings.width, self.settings.height)
        self._world: World | None = None
        self.dialogue: list[Utterance] = []
        self._heard: dict[int, int] = {}
        self._last: dict[int, tuple[str | None, bool, str]] = {}
        self._origin: dict[int, tuple] = {}  # each agent's pose at reset: its odometry frame
        self.steps = 0
        self.start: StartState | None = None

    # ------------------------------------------------------------------ lifecycle
    def reset(self, start: StartState | Any, seed: int = 0) -> Observation:
        """Start an episode; returns the Follower's first observation.

        ``start`` is a ``StartState``, an episode (anything with a ``start`` StartState), or a
        floor plan ("FloorPlan1" or 1) for a seeded random start (``simulator.spawn``).
        """
        if isinstance(start, str | int):
            from simulator.spawn import random_start

            start = random_start(start, seed)
        elif not isinstance(start, StartState) and isinstance(getattr(start, "start", None), StartState):
            start = start.start
        if not isinstance(start, StartState):
            raise NesyError(
                f"Simulator.reset needs a StartState, an episode or a floor plan name, got {type(start).__name__}"
            )
        self._world = build_world(start, self.settings.field_of_view, self.settings.interaction_distance,
                                  self.settings.occlusion)
        if self._view is not None:
            self._view.forget()
            targeting.attach_frames(self._world, self._view.frames)
        self.start = start
        self.dialogue = []
        self._heard = {COMMANDER: 0, FOLLOWER: 0}
        self._last = {COMMANDER: (None, True, ""), FOLLOWER: (None, True, "")}
        self._origin = {i: agent.pose() for i, agent in enumerate(self._world.agents)}
        self.steps = 0
        return self.observe(FOLLOWER)

    def odometry_origin(self, agent_id: int = FOLLOWER) -> tuple:
        """The world pose (x, z, rotation, horizon) an agent's odometry is relative to: its
        pose at ``reset`` (ground truth; oracles use it to express truth in that frame)."""
        return self._origin[agent_id]

    def camera_intrinsics(self) -> CameraIntrinsics:
        """The Follower camera's intrinsics (frame size, vertical field of view, height)."""
        return CameraIntrinsics(self.settings.width, self.settings.height, self.settings.field_of_view, CAMERA_HEIGHT)

    def search_object(self, query: str, agent_id: int = COMMANDER) -> dict[str, Any]:
        """TEACh's SearchObject (a Commander call): the object by id or fuzzy type name, its
        position and a pose that sees it; with rendering on, also the view's RGB frame and
        the object's mask in it (``view["rgb"]``, ``view["mask"]``: H x W bool)."""
        from simulator.tasks.search import search_object

        if agent_id != COMMANDER:
            return {"success": False, "message": "SearchObject is a Commander (agent 0) call"}
        found = search_object(self.world, query, FOLLOWER)
        view = found.get("view")
        if view is not None and self._view is not None:
            frames = self._view.frames_at(self.world, tuple(view["pose"]))
            view["rgb"] = frames.rgb
            view["mask"] = frames.mask(view["shown_objectId"])
        return found

    def fork(self) -> Simulator:
        """A copy of the current state (sharing the immutable scene) to plan in.

        Oracle Commanders and experts try actions in a fork to see what they would do;
        nothing done in it affects this simulator. A fork's observations carry no frames,
        but when this simulator renders, the fork resolves clicks through the same
        renderer's instance buffer, so a click planned in the fork selects the same object
        here.
        """
        twin = Simulator(dataclasses.replace(self.settings, render="none"))
        world = self.world
        twin._world = copy.deepcopy(world, memo={id(world.scene): world.scene})
        if self._view is not None:
            targeting.attach_frames(twin._world, self._view.frames)
        twin.dialogue = list(self.dialogue)
        twin._heard = dict(self._heard)
        twin._last = dict(self._last)
        twin._origin = dict(self._origin)
        twin.steps = self.steps
        twin.start = self.start
        return twin

    @property
    def world(self) -> World:
        """Ground truth (for oracles, tasks and evaluation; never for a plain Follower)."""
        if self._world is None:
            raise RuntimeError("call Simulator.reset(start_state) before using the simulator")
        return self._world

    # ------------------------------------------------------------------ acting
    def step(self, agent_id: int, action: str, **target: Any) -> StepResult:
        """Apply ``action`` for ``agent_id`` (0 Commander, 1 Follower)."""
        world = self.world
        error = self._check(agent_id, action)
        if error is None:
            spec = ACTIONS[action]
            if spec.op == "text":
                text = str(target.get("utterance", target.get("text", ""))).strip()
                error = None if text else "Text needs a non-empty utterance"
                if text:
                    self.dialogue.append(Utterance(agent_id, text, self.steps))
            elif spec.op != "stop":
                error = apply(world, agent_id, spec, target)
        self.steps += 1
        if type(agent_id) is int and agent_id in (COMMANDER, FOLLOWER):
            self._last[agent_id] = (action, error is None, error or "")
            observation = self.observe(agent_id)
        else:
            observation = self.observe(FOLLOWER)
        return StepResult(error is None, error or "", observation)

    def _check(self, agent_id: int, action: str) -> str | None:
        if type(agent_id) is not int or agent_id not in (COMMANDER, FOLLOWER):
            return f"Unknown agent {agent_id!r}: 0 is the Commander, 1 the Follower (an int)"
        if not isinstance(action, str):
            return f"An action is named by a string, got {type(action).__name__} {action!r}"
        if action not in ACTIONS:
            return f"Unknown action {action!r}; known actions: {', '.join(ACTIONS)}"
        if agent_id == COMMANDER and ACTIONS[action].op in INTERACTION_OPS:
            return "The Commander cannot interact with objects; only the Follower can"
        return None

    def say(self, agent_id: int, text: str) -> StepResult:
        return self.step(agent_id, "Text", utterance=text)

    # ------------------------------------------------------------------ observing
    def observe(self, agent_id: int) -> Observation:
        agent = self.world.agents[agent_id]
        heard_from = self._heard.get(agent_id, 0)
        new = [u for u in self.dialogue[heard_from:] if u.agent_id != agent_id]
        self._heard[agent_id] = len(self.dialogue)
        action, success, error = self._last.get(agent_id, (None, True, ""))
        pose = relative_pose(self._origin[agent_id], agent.pose())
        observation = Observation(agent_id, pose, agent.held is not None, action, success, error, new)
        if self._view is not None:
            frames = self._view.frames(self.world, agent_id)
            observation.rgb, observation.depth = frames.rgb.copy(), frames.depth.copy()
        return observation

    @property
    def rendering(self) -> bool:
        """True when observations carry rendered frames (``render: egl``)."""
        return self._view is not None

    def instance_frame(self, agent_id: int = FOLLOWER) -> Frames:
        """The rendered frames of ``agent_id``'s current view with the instance buffer and
        its table ``ids`` (instance k -> objectId): ground truth, for oracles, click
        resolution, evaluation and tests, never for a plain Follower. Read-only arrays;
        rendered at most once per unchanged view."""
        if self._view is None:
            raise NesyError(
                "instance frames need rendering: construct the Simulator with render: egl "
                "(config simulator.render=egl); it is 'none'"
            )
        if agent_id not in (COMMANDER, FOLLOWER):
            raise NesyError(f"Unknown agent {agent_id!r}: 0 is the Commander, 1 the Follower")
        return self._view.frames(self.world, agent_id)

    @property
    def frames_drawn(self) -> int:
        """Frames rendered so far (views that did not change since they were last rendered,
        e.g. after a failed move, come from a cache); 0 without rendering."""
        return self._view.draws if self._view is not None else 0

    def close(self) -> None:
        """Free the renderer's GPU objects (a no-op without rendering)."""
        if self._view is not None:
            self._view.release()

    def metadata(self, agent_id: int = FOLLOWER) -> dict[str, Any]:
        """AI2-THOR-style metadata seen from ``agent_id`` (ground truth)."""
        world = self.world
        view = world.view(agent_id)
        ids, distances, _ = view
        visible = set(world.visible_ids(agent_id, view))
        agent = world.agents[agent_id]
        action, success, error = self._last.get(agent_id, (None, True, ""))
        objects = [
            world.objects[oid].metadata(oid in visible, float(distances[i])) for i, oid in enumerate(ids)
        ]
        return {
            "sceneName": world.scene.name,
            "agent": {
                "position": {"x": agent.x, "y": 0.9009992, "z": agent.z},
                "rotation": {"x": 0.0, "y": float(agent.rotation), "z": 0.0},
                "cameraHorizon": agent.horizon,
            },
            "objects": objects,
            "inventoryObjects": (
                [{"objectId": agent.held, "objectType": world.objects[agent.held].object_type}]
                if agent.held else []
            ),
            "lastAction": action,
            "lastActionSuccess": success,
            "errorMessage": error,
        }

    def state_hash(self) -> str:
        return self.world.state_hash()
