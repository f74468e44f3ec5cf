"""Skills: small state machines that execute one planned subgoal, one action per step.

``InteractSkill`` walks to the target with the mapper's ``Navigator``, finds the target's
detection and clicks inside its mask, then reads the result in the next observation. Its
recovery: a put into a closed receptacle opens it first and puts again; an action on a
state that already holds ("already open") counts as done; a click that missed is retried
elsewhere in the mask and closer (bounded: ``MAX_RETRIES``); a target it cannot see on
arrival is looked for by looking up and down, then from closer (never again from as far as
a pose that did not show it); an enclosure acted on (opened, put into) that
lies wholly above or below the view is looked at first (``OFF_AXIS``); a full hand, an
unreachable target or a target that is not where believed ends the skill with a reason, and
the planner replans (``History`` remembers the miss); so does a target a hint has moved into a
closed cabinet while the skill runs (the plan must open it first: the navigator's goal poses
cannot show it, and three misses left the hinted plate out as missing: TATC valid_seen 0124); a target
already there when the skill began is the plan's choice, not failed again and again. A burner
with a pot on it is switched on with a click on the burner under the pot. A pickup whose
changed pixels show it took a neighbour of another kind puts the thing back, and a put onto a
plate or bowl that landed off it takes the thing back, before trying again
(``planner.changes``). The skills that only walk and look are ``planner.walking_skills``.
"""

from __future__ import annotations

import math

from contracts.belief import Belief, ObjectInstance, found_where_believed
from contracts.geometry import CameraIntrinsics, depth_to_points, project
from contracts.navigation import NavigationGoal, NavigationState, Navigator
from contracts.observation import Observation
from contracts.perception import Detection
from contracts.planning import LowLevelAction, PlannedSubgoal, Skill, SkillStep
from planner import knowledge
from planner.changes import ClickView, landed_off, over_footprint, took_another, where_landed
from planner.clicking import (
    basin_inside,
    believed_detection,
    click_point,
    find_target,
    handled_twins,
    same_kind,
    uncovered,
    under_vessel,
)
from planner.history import ACTION_OPS, MISCLICK_LIMIT, History
from planner.outcomes import hinted_shut_in, refused_by_another, took_effect
from planner.raycast import better_view, clean_pixels, free_spot, ray_click

ACTIONS = {"PickupObject": "Pickup", "PutObject": "Place", "OpenObject": "Open", "CloseObject": "Close",
           "ToggleObjectOn": "ToggleOn", "ToggleObjectOff": "ToggleOff", "SliceObject": "Slice", "PourObject": "Pour"}
AFFORDANCE = {"Pickup": "pickupable", "Place": "receptacle", "Open": "openable", "Close": "openable",
              "ToggleOn": "toggleable", "ToggleOff": "toggleable", "Slice": "sliceable", "Pour": "pourable"}
ALREADY = {"Open": "already open", "Close": "already closed", "ToggleOn": "already on", "ToggleOff": "already off"}
MAX_RETRIES = 3
MAX_MOVES = 3  # steps aside or back to find a view with a clean click
# of the frame's width: a click this near its left or right side first steps to where more of
# the target shows, if a step does (no-oracle ALFRED dev: 16 of 43 pickups clicked this near
# a side failed, 23 of 604 elsewhere)
EDGE = 0.1
MAX_STEPS = 250  # actions one skill may take
HORIZONS = (0.0, 30.0, -30.0, 60.0)  # camera horizons to scan when the target is not in view on arrival
REACH = 1.0  # metres (horizontal) the skill walks to a pose this near the target
# arrived on the way once the target is seen this near: AI2-THOR's reach is 1.5 m horizontally
# from the agent's axis (docs/calibration.md), whatever the height; what lies under a fridge
# shelf is seen from farther than it is from nearer
SIGHT_REACH = 1.4
# degrees: an enclosure acted on whose whole box is farther than this off the view's axis is first
# looked at (arrived on the way, the Follower opened FloorPlan10's microwave over the stove and
# put a slice into it looking 30 degrees down, the microwave's bottom edge at the frame's top:
# the slice landed out of view and was believed 0.32 m from where it lay, TATC 0193)
OFF_AXIS = 30.0
MAX_AIMS = 2  # looks one skill may take to bring an enclosure to the middle of the view


class InteractSkill(Skill):
    def __init__(self, step: PlannedSubgoal, navigator: Navigator, camera: CameraIntrinsics, history: History) -> None:
        self.planned, self.navigator, self.camera, self.history = step, navigator, camera, history
        self.action = ACTIONS[step.subgoal.action]
        self.target = step.receptacle_key if self.action in ("Place", "Pour") else step.object_key
        self.pending: LowLevelAction | None = None
        self.pending_belief: Belief | None = None
        self.pending_view: ClickView | None = None  # what a pickup or put clicked in
        self.undoing = False  # the pending action undoes a pickup or put that took or hit another thing
        self.retries = self.steps = self.moves = 0
        self.stepped = False  # the last action was a step aside (or back) for a better view
        self.looked: set[float] = set()
        self.aims = 0  # looks taken to bring the target to the view's middle (``_aim``)
        self.reach: float | None = None  # set from the target's height on the first step
        # the nearest reach from whose pose the target did not show: no farther pose is tried
        # when a nearer one is unreachable (closer by 0.4, farther by 0.25 again and again: TATC
        # valid_unseen 0120 looked up and down at an unseen faucet for 600 steps)
        self.unseen_at = math.inf
        self.scanning = self.hold = False
        self.avoid: list[tuple[float, float]] = list(history.avoid.get(self.target or "", ()))
        self.queue: list[str] = []  # recovery actions to take before the subgoal's own (e.g. "Open")
        self.start_container: str | None = None  # where the target was believed when the skill began

    def step(self, observation: Observation, belief: Belief, detections: list[Detection]) -> SkillStep:
        self.steps += 1
        if self.steps > MAX_STEPS:
            return SkillStep.fail(f"{self.action} {self.target}: gave up after {MAX_STEPS} steps")
        if self.stepped and not observation.last_action_success:
            self.moves = MAX_MOVES  # the step aside collided: click from here (the map missed what blocked it)
        self.stepped = False
        if self.pending is not None:
            outcome = self._outcome(observation, belief)
            if outcome is not None:
                return outcome
        if self.target is None or self.target not in belief.memory.instances:
            return SkillStep.fail(f"{self.target} is not in memory: not where believed")
        instance = belief.memory.instances[self.target]
        if self.steps == 1:
            self.start_container = instance.container
        elif instance.container != self.start_container and hinted_shut_in(belief, self.target):
            return SkillStep.fail(f"{self.target} is now believed shut in {instance.container}: plan again")
        if self.reach is None:  # nearer after clicks that hit a neighbour
            misses = self.history.misclicks[self.target]
            self.reach = max(REACH - 0.3 * misses, 0.3)
        if not self.scanning and not self.hold:
            sight = SIGHT_REACH if self.reach >= REACH else None  # not when it came closer to click again
            nav = self.navigator.step(observation, belief,
                                      NavigationGoal(instance=self.target, reach=self.reach, seen_within=sight))
            if nav.state == NavigationState.MOVING and nav.action:
                return SkillStep.act(LowLevelAction(nav.action))
            if nav.state == NavigationState.UNREACHABLE:
                # a farther pose may still reach it, but not one as far as where it did not show
                if self.reach < REACH + 0.4 and self.reach + 0.25 < self.unseen_at - 1e-6:
                    self.reach += 0.25
                    return self.step(observation, belief, detections)
                return SkillStep.fail(f"{self.target} is unreachable: {nav.reason}")
        name = self.queue[0] if self.queue else self.action
        if not self.hold and (look := self._aim(instance, belief)) is not None:
            return SkillStep.act(LowLevelAction(look))
        detection = find_target(instance, detections, belief.pose, self.camera, handled_twins(instance, belief),
                                observation.depth, belief.memory.instances.get(instance.container or ""))
        seen = detection is not None
        if detection is None and found_where_believed(instance) and not (
                name == "Place" and knowledge.has(instance.object_type, "pickupable")):  # believed, never detected: click its box
            detection = believed_detection(instance, belief.pose, self.camera, observation.depth,
                                           standing=instance.object_type == "Faucet", detections=detections)
            if detection is not None:  # where nothing seen would take the click instead
                detection = uncovered(detection, detections, AFFORDANCE.get(name))
        if detection is None and self.hold:  # lost it after stepping aside: walk to it again
            self.hold = False
            return self.step(observation, belief, detections)
        if detection is None:
            self.scanning = True  # look up and down from here before walking on
            look = self._scan(belief.pose.horizon)
            if look is not None:
                return SkillStep.act(LowLevelAction(look))
            if self.reach > 0.6:  # try again from closer
                self.unseen_at = min(self.unseen_at, self.reach)
                self.reach, self.scanning, self.looked = self.reach - 0.4, False, set()
                return self.step(observation, belief, detections)
            return SkillStep.fail(f"{self.target} is not visible from where it should be: not where believed")
        self.scanning, self.looked = False, set()
        centre = project(instance.position, belief.pose, self.camera)
        affordance = AFFORDANCE.get(name)
        if name == "Place" and self.moves < MAX_MOVES and not knowledge.has(instance.object_type, "openable"):
            move = free_spot(instance, belief, self.camera)  # not down onto what is already there
            if move is not None:
                return self._step_aside(move, hold=True)  # the navigator would undo the look: stay here for the put
        if name == "Place" and instance.object_type in knowledge.BASINS and observation.depth is not None:
            detection = basin_inside(detection, depth_to_points(observation.depth, belief.pose, self.camera))
        point = self._under_vessel(name, instance, observation, belief, detections) \
            or ray_click(instance, detection.mask, belief, self.camera, affordance, tuple(self.avoid))
        if point is None and self.moves < MAX_MOVES:  # no clean click from here: step to a better view
            move = better_view(instance, belief, self.camera, affordance)
            if move is not None:
                return self._step_aside(move, hold=False)
        x, y = point or click_point(detection, detections, tuple(self.avoid), centre, affordance)
        if self.moves < MAX_MOVES and not self.queue and min(x, 1 - x) < EDGE and (move := better_view(
                instance, belief, self.camera, affordance, clean_pixels(instance, belief, self.camera, affordance))):
            return self._step_aside(move, hold=True)  # at the frame's side and cut by it: to where more of it shows
        if self.queue:  # a recovery action on the target itself
            action = LowLevelAction(name, {"x": x, "y": y}, self.target)
        else:
            action = LowLevelAction(name, {"x": x, "y": y}, self.planned.object_key, self.planned.receptacle_key)
        self.pending, self.pending_belief = action, belief
        self.pending_view = ClickView(observation, detection, detections, instance.container) \
            if name in ("Pickup", "Place") and seen and not self.queue else None
        return SkillStep.act(action)

    def _undo(self, click: LowLevelAction, undo: LowLevelAction) -> SkillStep:
        """The ``click`` took or hit another thing than the target (``planner.changes``): a
        pickup that took a neighbour puts it back at the same click, into where the target is
        believed; a put that landed off the receptacle takes the thing back where it shows. Then
        the target is tried again, closer and elsewhere in its mask (at most ``MAX_RETRIES``
        times)."""
        point = (click.target["x"], click.target["y"])
        self.history.misclicks[self.target] += 1
        self.history.avoid.setdefault(self.target or "", []).append(point)
        self.avoid.append(point)
        self.retries += 1
        self.reach = max((self.reach or REACH) - 0.25, 0.3)
        self.pending, self.undoing = undo, True
        return SkillStep.act(undo)

    def finished_by_last_action(self, observation: Observation, belief: Belief) -> bool:
        """The outcome of the pending click, read (and recorded) before the skill is dropped
        for new instructions: done, or not (a recovery it would have taken is dropped too)."""
        if self.pending is None:
            return False
        return self._outcome(observation, belief) == SkillStep.done()

    def _step_aside(self, move: tuple[str, float], hold: bool) -> SkillStep:
        """One step (``better_view``, ``free_spot``: the move and the distance to the target
        from where it leads) to a better view; with ``hold``, the skill clicks from there
        without the navigator walking back first."""
        self.moves += 1
        self.stepped = True
        self.reach = max(self.reach or REACH, move[1] + 0.05)  # the navigator must not walk back
        self.hold = self.hold or hold
        return SkillStep.act(LowLevelAction(move[0]))

    def _under_vessel(self, name: str, instance: ObjectInstance, observation: Observation, belief: Belief,
                      detections: list[Detection]) -> tuple[float, float] | None:
        """For switching on a burner the Follower believes a pot or pan on: the click on the
        burner under it (``clicking.under_vessel``), when the vessel is in view."""
        if name != "ToggleOn" or instance.object_type != "StoveBurner" or observation.depth is None:
            return None
        vessel = next((i for i in belief.memory.instances.values() if i.container == instance.key
                       and i.object_type in knowledge.HEATING_VESSELS), None)
        if vessel is None:
            return None
        seen = find_target(vessel, detections, belief.pose, self.camera, depth=observation.depth)
        if seen is None:
            return None
        burners = [d for d in detections if same_kind(d.object_type, instance.object_type)]
        points = depth_to_points(observation.depth, belief.pose, self.camera)
        return under_vessel(burners, seen, points, tuple(self.avoid))

    def _over(self, observation: Observation, belief: Belief):
        """The pixels whose point lies over the target's believed footprint (``over_footprint``;
        None without depth or the target)."""
        instance = belief.memory.instances.get(self.target or "")
        if observation.depth is None or instance is None:
            return None
        return over_footprint(depth_to_points(observation.depth, belief.pose, self.camera), instance.position,
                              instance.extent)

    def _believed_open(self, belief: Belief) -> bool:
        inst = belief.memory.instances.get(self.target or "")
        return inst is not None and bool(inst.states.get("is_open"))

    def _aim(self, instance: ObjectInstance, belief: Belief) -> str | None:
        """A look towards an enclosure (what opens and holds things: a microwave, a fridge, a
        cabinet) when all of its believed box lies more than ``OFF_AXIS`` above or below the
        view's axis and another of the camera's horizons has it nearer (at most ``MAX_AIMS``):
        what is put into it, taken from it or shows when it opens is then in view."""
        if self.aims >= MAX_AIMS or not {"openable", "receptacle"} <= knowledge.properties(instance.object_type):
            return None
        pose = belief.pose
        x, y, z = instance.position
        away = max(math.hypot(x - pose.x, z - pose.z), 1e-6)
        top, bottom = (math.degrees(math.atan2(self.camera.camera_height - (y + side * instance.extent[1] / 2), away))
                       for side in (1, -1))  # degrees below the horizontal, as the camera's horizon

        def off(horizon: float) -> float:
            return max(top - horizon, horizon - bottom, 0.0)

        best = min(HORIZONS, key=lambda h: (off(h), abs(h - pose.horizon)))
        if off(pose.horizon) <= OFF_AXIS or off(best) >= off(pose.horizon):
            return None
        self.aims += 1
        return "Look Down" if best > pose.horizon else "Look Up"

    def _scan(self, horizon: float) -> str | None:
        """A look towards the nearest camera horizon not tried yet (None: all tried)."""
        self.looked.add(round(horizon))
        left = [h for h in HORIZONS if round(h) not in self.looked]
        if not left:
            return None
        nearest = min(left, key=lambda h: abs(h - horizon))
        self.looked.add(round(nearest))  # aimed at: not aimed at again even if the look fails
        return "Look Down" if nearest > horizon else "Look Up"

    def _outcome(self, observation: Observation, belief: Belief) -> SkillStep | None:
        """The result of the interaction taken last step: done, a recovery, or a failure."""
        action, self.pending = self.pending, None
        view, self.pending_view = self.pending_view, None
        error = observation.error_message or ""
        if self.undoing:
            self.undoing = False
            if not observation.last_action_success:
                return SkillStep.fail(f"{action.action} to undo a click beside {self.target} failed: {error}")
            if self.retries > MAX_RETRIES:
                return SkillStep.fail(f"clicks meant for {self.target} took or hit another thing {self.retries} times")
            return None  # try again: closer, elsewhere in the mask
        if observation.last_action_success and view is not None:
            if action.action == "Pickup" and took_another(view.before, observation, view.target, view.detections):
                back_into = view.container  # None: put down wherever the click meets, the target not moved
                return self._undo(action, LowLevelAction("Place", dict(action.target), back_into and self.target, back_into))
            new = landed_off(view.before, observation, view.target, self._over(observation, belief)) \
                if action.action == "Place" and action.object_key \
                and knowledge.has(view.target.object_type, "pickupable") else None  # a plate's edge, not a counter's
            if new is not None:
                x, y = where_landed(new)
                return self._undo(action, LowLevelAction("Pickup", {"x": x, "y": y}, action.object_key))
        if observation.last_action_success and not took_effect(action, belief, self.pending_belief):
            # the click hit a neighbour: the world changed in another way than planned
            self.history.misclicks[self.target] += 1
            self.history.avoid.setdefault(self.target, []).append((action.target["x"], action.target["y"]))
            self.history.record(action, self.pending_belief, hit_other=True)
            return SkillStep.fail(f"{action.action} acted on another object than {self.target}: not where believed")
        if not observation.last_action_success and ALREADY.get(action.action, "\0") in error \
                and not took_effect(action, belief):
            # "already open" about a neighbour the click hit (the target is still shut): a
            # misclick, so a target no click reaches from here is left out after a few (the
            # plans chose one cabinet under open drawers again and again, to ALFRED's failure limit)
            self.history.misclicks[self.target] += 1
            self.retries += 1
            # misclicks count over skills too: the Commander's words cut each short (TATC 0098: 29 in a row)
            if self.retries > MAX_RETRIES or self.history.misclicks[self.target] >= MISCLICK_LIMIT:
                return SkillStep.fail(f"{action.action} acted on another object than {self.target}: not where believed")
            self.avoid.append((action.target["x"], action.target["y"]))
            self.reach = max((self.reach or REACH) - 0.25, 0.3)
            return None
        if observation.last_action_success or ALREADY.get(action.action, "\0") in error:
            if observation.last_action_success:
                self.history.record(action, self.pending_belief)
            elif action.action == "ToggleOn" and not self.queue \
                    and belief.memory.instances[self.target].object_type in self.history.doubted:
                # the step said again while it runs (TATC 0050: "Turn on the faucet." 23 times, each
                # found it on): what the Commander wants happens as it is switched on, so off, then on
                self.queue.append("ToggleOff")
                return None
            elif action.action in ("ToggleOn", "ToggleOff"):
                self.history.switched(self.target, action.action == "ToggleOn")
            if self.queue:
                self.queue.pop(0)
                return None
            return SkillStep.done()
        lowered = error.lower()
        if "is closed" in lowered and action.action == "Place" and self._believed_open(belief):
            error = "the click hit a closed neighbour"  # the target is open: retry elsewhere, below
            self.history.misclicks[self.target] += 1  # and the next skill for it comes closer
        elif action.action == "Place" and refused_by_another(error, belief, self.target):
            error = lowered = "the click hit a neighbour receptacle"  # retry elsewhere, below
            self.history.misclicks[self.target] += 1
        elif "is closed" in lowered and action.action in ("Place", "Pickup") and not self.queue:
            self.queue.append("Open")  # receptacle closed: open it, then do the subgoal
            return None
        if "hand is full" in lowered or "no object in hand" in lowered:
            return SkillStep.fail(f"{action.action} failed: {error}")
        if "cannot place" in lowered or "must hold" in lowered or "not filled" in lowered:
            self.history.failed(ACTION_OPS.get(action.action, ""), self.target, error)
            if "not filled" in lowered:  # believed filled, it is not: fill it again
                self.history.emptied(belief.holding)
            return SkillStep.fail(f"{action.action} failed: {error}")
        self.retries += 1
        point = (action.target["x"], action.target["y"])
        self.history.avoid.setdefault(self.target, []).append(point)  # the next skill for it does not click there either
        if self.retries > MAX_RETRIES:
            if "no object" in lowered:  # clicks on it hit nothing that could be acted on: not there
                self.history.failed(ACTION_OPS.get(action.action, ""), self.target, "nothing to act on: not where believed")
            return SkillStep.fail(f"{action.action} on {self.target} failed {self.retries} times: {error}")
        self.avoid.append(point)
        self.reach = max((self.reach or REACH) - 0.25, 0.3)  # come closer and click elsewhere in the mask
        return None
