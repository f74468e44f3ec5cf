"""Small scripted scenes for the planner tests: Beliefs built by hand, a navigator that
has always arrived, detections with masks."""

from __future__ import annotations

from contracts.belief import Belief, GridMap, ObjectInstance, ObjectMemory
from contracts.geometry import CameraIntrinsics, Pose
from contracts.navigation import NavigationGoal, NavigationState, NavigationStep, Navigator
from contracts.observation import FOLLOWER, ModuleContext, Observation
from contracts.perception import Detection, box_mask

CAMERA = CameraIntrinsics(100, 100, 90.0, 1.5)
CONTEXT = ModuleContext(CAMERA, False, 0, 0)


def belief(objects: list[tuple], held: str | None = None, horizon: float = 0.0) -> Belief:
    """objects: (key, type, (x, y, z), container or None, states dict)."""
    memory = ObjectMemory(held=held)
    for key, kind, position, container, states in objects:
        memory.instances[key] = ObjectInstance(key, kind, position, (0.2, 0.2, 0.2), 1.0, 1, 1, container, dict(states))
    return Belief(GridMap.empty((-2.0, -2.0), (16, 16), 0.25), memory, Pose(0.0, 0.0, 0.0, horizon), 1)


def observation(last_action: str | None = None, success: bool = True, error: str = "") -> Observation:
    return Observation(FOLLOWER, Pose(0.0, 0.0, 0.0, 0.0), False, last_action, success, error)


def detection(kind: str, box: tuple[float, float, float, float]) -> Detection:
    return Detection(kind, 1.0, box, box_mask(box, CAMERA.height, CAMERA.width))


class ArrivedNavigator(Navigator):
    """Always in view and within reach (the skills' navigation is tested elsewhere)."""

    searcher = None  # type: ignore[assignment]

    def step(self, observation: Observation, belief: Belief, goal: NavigationGoal) -> NavigationStep:
        return NavigationStep(NavigationState.ARRIVED)


def kitchen(**extra_states) -> list[tuple]:
    """A small kitchen in front of the Follower (all within 1 m)."""
    return [
        ("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {}),
        ("Fridge", "Fridge", (0.8, 0.9, 1.0), None, {"is_open": False}),
        ("Apple", "Apple", (0.2, 1.0, 1.0), "Counter", {}),
        ("Knife", "Knife", (-0.2, 1.0, 1.0), "Counter", {}),
        ("Mug", "Mug", (0.3, 1.0, 1.0), "Counter", {"is_dirty": True, "is_filled": False}),
        ("Basin", "SinkBasin", (-0.8, 0.8, 1.0), None, {}),
        ("Faucet", "Faucet", (-0.8, 1.1, 1.3), None, {"is_toggled": False}),
        ("Machine", "CoffeeMachine", (0.5, 1.0, 1.2), "Counter", {"is_toggled": False}),
        ("Microwave", "Microwave", (-0.4, 1.1, 1.2), "Counter", {"is_open": False, "is_toggled": False}),
        ("Plate", "Plate", (0.1, 0.95, 0.9), "Counter", {"is_dirty": False}),
        *[(k, t, p, c, s) for k, t, p, c, s in extra_states.get("more", [])],
    ]
