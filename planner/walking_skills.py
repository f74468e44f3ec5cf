"""Skills that walk and look: ``SearchSkill`` explores with the navigator's searcher until
memory holds an object of the type (opening and looking into receptacles on the way);
``GotoSkill`` walks to an instance. The skill that acts on an object is
``planner.skills.InteractSkill``.
"""

from __future__ import annotations

import math

from contracts.belief import Belief
from contracts.geometry import CameraIntrinsics, Pose, bearing
from contracts.navigation import NavigationGoal, NavigationState, Navigator, SearchTarget
from contracts.observation import Observation
from contracts.perception import Detection
from contracts.planning import LowLevelAction, Skill, SkillStep
from planner import knowledge
from planner.clicking import click_point, find_target
from planner.history import History
from planner.raycast import ray_click
from planner.skills import HORIZONS, MAX_STEPS, REACH


class SearchSkill(Skill):
    """Explore for an object type until memory holds one it did not hold when the search
    began (the plan may need a second plate while the first is in use), or nothing is left
    to search."""

    def __init__(self, object_type: str, navigator: Navigator, camera: CameraIntrinsics, history: History) -> None:
        self.object_type = knowledge.representative(object_type)
        self.navigator, self.camera, self.history = navigator, camera, history
        self.current: SearchTarget | None = None
        self.turns = self.steps = self.spins = self.looks = 0
        self.opening = self.arrived = self.switched_off = False
        self.known: set[str] | None = None  # instances of the type in memory when the search began
        if object_type in history.retold:  # given up on, spoken of again: search everywhere again
            history.retold.discard(object_type)
            navigator.searcher.start_over()

    def step(self, observation: Observation, belief: Belief, detections: list[Detection]) -> SkillStep:
        self.steps += 1
        self.history.seen_elsewhere(belief.memory.instances)  # one given up, now seen elsewhere, is found
        held = {i.key for i in belief.memory.instances.values()
                if i.object_type == self.object_type and not self.history.gone(i.key)}
        if self.known is None:
            self.known = held
        if held - self.known:
            return SkillStep.done()
        if self.steps > 4 * MAX_STEPS:
            return SkillStep.fail(f"searched {MAX_STEPS * 4} steps for a {self.object_type} without finding one")
        searcher = self.navigator.searcher
        if self.current is None:
            self.current = searcher.next_search(belief, self.object_type)
            self.turns = 0
            if self.current is None and self.spins < 3:  # nothing left in the map: look around once first
                self.spins += 1
                return SkillStep.act(LowLevelAction("Turn Right"))
            if self.current is None:
                self.history.not_found.add(self.object_type)
                return SkillStep.fail(f"no {self.object_type} found: searched everywhere it could be")
        if not self.arrived:  # once there, the turns and looks below are not undone by the navigator
            nav = self.navigator.step(observation, belief, self.current.goal)
            if nav.state == NavigationState.MOVING and nav.action:
                return SkillStep.act(LowLevelAction(nav.action))
            self.arrived = nav.state == NavigationState.ARRIVED
        if self.arrived and self.current.open_receptacle and not self.opening:
            if not searcher.worth_opening(belief, self.current):  # the door of one opened already
                self.opening = True
                return self._next(observation, belief, detections)
            receptacle = belief.memory.instances.get(self.current.goal.instance or "")
            detection = find_target(receptacle, detections, belief.pose, self.camera,
                                    depth=observation.depth) if receptacle else None
            # a running microwave does not open (AI2-THOR): switched off first, once
            running = receptacle is not None and receptacle.object_type == "Microwave" \
                and bool(receptacle.states.get("is_toggled")) and not self.switched_off
            self.switched_off |= running
            self.opening = not running
            if detection is not None:
                affordance = "toggleable" if running else "openable"
                point = ray_click(receptacle, detection.mask, belief, self.camera, affordance)
                x, y = point or click_point(detection, detections, affordance=affordance)
                return SkillStep.act(LowLevelAction("ToggleOff" if running else "Open", {"x": x, "y": y}, receptacle.key))
            self.opening = True
        if self.arrived and self.opening and (look := self._look_into(belief)) is not None:
            return look
        if self.arrived and self.turns < 4 and not (self.current.open_receptacle or self.current.look_inside):
            self.turns += 1  # look around where the search led: a full turn
            return SkillStep.act(LowLevelAction("Turn Right"))
        return self._next(observation, belief, detections)

    def _next(self, observation: Observation, belief: Belief, detections: list[Detection]) -> SkillStep:
        """The current target is searched: on to the next."""
        self.navigator.searcher.searched(self.current)
        self.current, self.opening, self.arrived, self.looks, self.switched_off = None, False, False, 0, False
        return self.step(observation, belief, detections)

    def _look_into(self, belief: Belief) -> SkillStep | None:
        """A look up or down towards the receptacle just opened, if the camera is not aimed
        at it (a cabinet above the counter, a cupboard under it): one or two looks."""
        receptacle = belief.memory.instances.get(self.current.goal.instance or "") if self.current else None
        if receptacle is None or self.looks >= 2:
            return None
        x, y, z = receptacle.position
        distance = max(math.hypot(x - belief.pose.x, z - belief.pose.z), 0.1)
        down = math.degrees(math.atan2(self.camera.camera_height - y, distance))
        wanted = min(HORIZONS, key=lambda h: abs(h - down))
        if abs(wanted - belief.pose.horizon) < 1.0:
            return None
        self.looks += 1
        return SkillStep.act(LowLevelAction("Look Down" if wanted > belief.pose.horizon else "Look Up"))


class GotoSkill(Skill):
    """Walk to an instance (a plan that ends next to something, e.g. ALFRED's lamp, or a step
    "Go to the desk."), to the pose within reach nearest its middle: people who say "go to
    the desk" mean its front, not its nearest corner. With ``face`` (an instance key), then
    turn there to bring that instance into view if it is near enough to be seen."""

    def __init__(self, key: str, navigator: Navigator, face: str | None = None, camera_height: float = 0.0) -> None:
        self.key, self.navigator, self.steps = key, navigator, 0
        self.face, self.camera_height, self.turns = face, camera_height, 0

    def step(self, observation: Observation, belief: Belief, detections: list[Detection]) -> SkillStep:
        self.steps += 1
        if self.key not in belief.memory.instances or self.steps > MAX_STEPS:
            return SkillStep.fail(f"{self.key} is not in memory: not where believed")
        if self.turns == 0:
            nav = self.navigator.step(observation, belief, NavigationGoal(instance=self.key, reach=REACH, centred=True))
            if nav.state == NavigationState.MOVING and nav.action:
                return SkillStep.act(LowLevelAction(nav.action))
            if nav.state == NavigationState.UNREACHABLE:
                return SkillStep.fail(f"{self.key} is unreachable: {nav.reason}")
        faced = belief.memory.instances.get(self.face or "")
        turn = facing_action(belief.pose, faced.position, self.camera_height) if faced is not None else None
        if turn is not None and self.turns < MAX_FACING_TURNS:
            self.turns += 1
            return SkillStep.act(LowLevelAction(turn))
        return SkillStep.done()


MAX_FACING_TURNS = 4  # turns and looks to bring an instance into view where a walk ended
SEEN_WITHIN = 1.5  # metres (horizontal): what is farther is not seen (AI2-THOR's visibility distance)


def facing_action(pose: Pose, position: tuple[float, float, float], camera_height: float) -> str | None:
    """The turn or look that brings ``position`` nearer the middle of the view from ``pose``
    (90-degree turns, 30-degree looks), None once it is in view or too far to be seen."""
    distance = math.hypot(position[0] - pose.x, position[2] - pose.z)
    if distance > SEEN_WITHIN:
        return None
    side = bearing(pose, position)
    if abs(side) > 45.0:
        return "Turn Right" if side > 0 else "Turn Left"
    wanted = math.degrees(math.atan2(camera_height - position[1], max(distance, 0.1)))  # positive: below the camera
    wanted = min(HORIZONS, key=lambda h: abs(h - wanted))
    if abs(wanted - pose.horizon) < 15.0:
        return None
    return "Look Down" if wanted > pose.horizon else "Look Up"
