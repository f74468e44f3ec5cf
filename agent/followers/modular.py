"""The ``modular`` Follower: DESIGN.md's pipeline assembled from registered modules.

At ``reset`` every module gets the run's ``ModuleContext``; the parser turns the briefing
into the goal (ALFRED: the human goal, and the step instructions if given; TATC: nothing,
so the goal starts empty, except with ``oracle-parser``, which reads it from the episode).
Then each ``act(observation)``:

1. the parser turns the Commander's new utterances into intents: a task statement sets the
   goal's task, instructions append subgoals, location hints (and location answers) are
   kept for the mapper (``agent.followers.intents``); after the mapper's update, an answer
   to the Follower's last question may pick an instance (``Goal.preferred``), and the
   planner hears which object types were spoken of (``Planner.told``: what it gave up on
   about them is tried again, and so is the object of the step it gave up on when its plan
   was idle or failing -- a type searched for everywhere in vain is then searched for
   everywhere again; a state step -- clean, fill, heat, cool, pour -- repeated
   while its plan was idle or failing makes it doubt what it believed of that step's object;
   the navigator forgets the goal poses that did not show their instances:
   ``Navigator.reconsider``);
2. perception, told the objects of the current plan's steps (``attend``), turns the frame
   into detections;
3. the mapper updates the Belief from the observation, the detections, the outcome of the
   Follower's last low-level action and the new hints; action tokens heard ("Forward
   TurnLeft Pickup Mug at 0.57 0.25", the ``teach-lowlevel`` Commander's answers) are taken
   one per step before anything is planned, dropping the running skill;
4. with no skill running, the planner plans the goal against the Belief (passing the last
   skill failure, if any); with an empty goal the plan is idle ("no goal");
5. the dialogue manager sees the planner's status (with the Belief, the plan's steps, the
   last skill failure and the subgoals finished since the Follower last spoke) and may ask a
   question **before** the Follower acts (never in ALFRED episodes: nobody would answer);
   ``dialogue.generation`` renders it;
6. otherwise the skill for the plan's first step (made with the mapper's navigator) gives
   the next low-level action; when it
   reports success or failure the Follower drops it and goes back to 4 (at most
   ``MAX_SKILL_CHANGES`` times per step, and a subgoal that fails twice within one step is
   given up for that step); a plan failing on an object type (not found anywhere, or
   unreachable; with no type named, as when no plan exists, the types of the step that
   failed last) makes the planner search for it afresh (``Planner.told``), at most
   ``MAX_RETRIES`` times an episode (in TATC it used to say Stop until the turn limit); with
   nothing to do or ask it says Stop -- but without a Commander (ALFRED, where Stop ends
   the episode) a step given up while the task is not believed done makes it turn and plan
   again, at most ``MAX_STALLS`` times (not a walk: the task may hold where it stands, as a
   look_at task with the lamp on does).
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Any

from agent.followers.action_executor import parse_action_tokens
from agent.followers.intents import IntentReader
from contracts.agents import Follower, FollowerAction
from contracts.belief import Belief
from contracts.dialogue import DialogueState, Question
from contracts.observation import COMMANDER, FollowerBriefing, ModuleContext, Observation
from contracts.planning import (
    ActionOutcome,
    Goal,
    LowLevelAction,
    Plan,
    PlannedSubgoal,
    PlannerState,
    Skill,
    SkillFailure,
    SkillState,
)
from contracts.registry import follower
from dialogue.generation import Generator

MAX_SKILL_CHANGES = 8  # skills that may end within one step before the Follower gives up the step
MAX_RETRIES = 3  # times per episode a plan failing on an object type starts that type's search over
MAX_STALLS = 8  # without a Commander (ALFRED), given-up steps it turns away from instead of stopping


@follower.register("modular")
class ModularFollower(Follower):
    MODULE_FAMILIES = ("parser", "perception", "mapper", "planner", "dialogue_manager")

    def __init__(self, modules: dict[str, Any]) -> None:
        self.modules = modules
        self.goal = Goal()

    def oracle_modules(self) -> list[Any]:
        """The modules that take ground truth (the runner attaches it)."""
        return [m for m in self.modules.values() if getattr(type(m), "registered_name", "").startswith("oracle")]

    def reset(self, briefing: FollowerBriefing, context: ModuleContext) -> None:
        self.briefing, self.context = briefing, context
        for module in self.modules.values():
            module.reset(context)
        self.navigator = self.modules["mapper"].navigator()
        self.reader = IntentReader(self.modules["parser"])
        self.goal = self.reader.briefing_goal(briefing)
        self.generator = Generator(context.seed)
        self.plan: Plan | None = None
        self.skill: Skill | None = None
        self.current: PlannedSubgoal | None = None
        self.failure: SkillFailure | None = None
        self.last_action: LowLevelAction | None = None
        self.heard_since_question = True
        self.questions = self.steps = self.heard = self.stalls = self.retries = 0
        self.search_steps = 0  # steps taken for a plan step that searches for something not in memory
        self.question: Question | None = None  # the last question asked
        self.finished: list[PlannedSubgoal] = []  # steps done since the Follower last spoke
        self.told_actions: deque[FollowerAction] = deque()  # action tokens heard, not yet taken
        self.given_up: list[str] = []  # steps whose skills failed since the last action (for the log)

    def episode_counts(self) -> dict[str, int]:
        """What the runner adds to the episode's metrics: ``search_steps``, the steps taken
        searching for something the map did not hold (what a location answer can save)."""
        return {"search_steps": self.search_steps}

    def act(self, observation: Observation) -> FollowerAction:
        heard = [u.text for u in observation.utterances if u.agent_id == COMMANDER]
        tokens = [parse_action_tokens(text) for text in heard]  # None: words, not action tokens
        for actions in tokens:
            self.told_actions.extend(actions or ())
        goal, hints = self.reader.read([text for text, actions in zip(heard, tokens, strict=True) if not actions],
                                       self.goal)
        outcome = self._outcome(observation)
        self.modules["perception"].attend(self._looked_for())
        detections = self.modules["perception"].detect(observation)
        belief = self.modules["mapper"].update(observation, detections, outcome, hints)
        if heard:
            self.heard_since_question = True
            self.heard += len(heard)
            goal = self.reader.answered(self.question, goal, belief)
            stalled = self.plan is not None and self.plan.status.state in (PlannerState.IDLE, PlannerState.FAILING)
            told = set(self.reader.mentioned)
            if stalled and told:
                told |= _failed_types(self.failure)  # what it gave up on, though not named ("rinse it in the sink": a faucet)
            self._retell(frozenset(told), frozenset(self.reader.repeated) if stalled else frozenset())
        if goal != self.goal:  # new instructions (or a picked instance): plan again
            repeated = (goal.task, goal.preferred, set(goal.subgoals)) == (self.goal.task, self.goal.preferred,
                                                                            set(self.goal.subgoals))
            if not repeated:  # a step said again does not interrupt the skill doing it
                self._interrupt(observation, belief)
            self.goal = goal
        if self.told_actions:  # told exactly what to do: do it, then plan again from where it leads
            action, self.skill = self.told_actions.popleft(), None
            self.last_action = LowLevelAction(action.action, dict(action.target))
            self.steps += 1
            return replace(action, doing="told: " + action.action)
        failed_now: list[PlannedSubgoal] = []
        for _ in range(MAX_SKILL_CHANGES):
            if self.skill is None:
                self.plan = (self.modules["planner"].plan(self.goal, belief, self.failure) if not self.goal.empty
                             else Plan.idle("no goal"))
            question = self._question(self.plan, belief)
            if question is not None:
                return self._ask(question)
            if self.skill is None:
                if not self.plan.steps:
                    break
                self.current = self.plan.steps[0]
                self.skill = self.modules["planner"].skill(self.current, belief, self.navigator)
            result = self.skill.step(observation, belief, detections)
            if result.state == SkillState.RUNNING and result.action is not None:
                self.last_action = result.action
                self.steps += 1
                self.search_steps += self.current.search
                return self._logged(FollowerAction(result.action.action, dict(result.action.target),
                                                   meant=_meant(result.action, belief), doing=self.current.label))
            self.skill = None
            if result.state == SkillState.SUCCEEDED:
                self.failure = None
                self.finished.append(self.current)
                continue
            failures = (self.failure.failures if self.failure and self.failure.step == self.current else 0) + 1
            self.failure = SkillFailure(self.current, result.reason or "the skill gave no action", failures)
            self.given_up.append(f"{self.current.label}: {self.failure.reason}")
            if self.current in failed_now:  # it failed again without acting: give this step up
                break
            failed_now.append(self.current)
        self.last_action = None
        status = self.plan.status
        given_up = {status.target} if status.target else _failed_types(self.failure)
        if status.state == PlannerState.FAILING and given_up and self.retries < MAX_RETRIES:
            self.retries += 1  # given up on finding or reaching it: look for it afresh (from another heading)
            self._retell(frozenset(given_up))
            return self._logged(FollowerAction("Turn Left", doing="look afresh for " + " ".join(sorted(given_up))))
        if self.briefing.suite != "tatc" and status.state != PlannerState.IDLE and self.stalls < MAX_STALLS \
                and not (self.current is not None and self.current.subgoal.action == "GotoLocation"):
            self.stalls += 1  # nobody to ask and Stop would end the episode: look elsewhere, then plan again
            return self._logged(FollowerAction("Turn Left", doing="stalled: turn and plan again"))
        return self._logged(FollowerAction("Stop"))

    def _logged(self, action: FollowerAction) -> FollowerAction:
        """The action with the steps given up since the last one (for the episode log)."""
        if not self.given_up:
            return action
        gave_up, self.given_up = "; ".join(self.given_up), []
        return replace(action, gave_up=gave_up)

    def _interrupt(self, observation: Observation, belief: Belief) -> None:
        """New instructions drop the skill. If the action it took last finished its step, the
        planner first hears so on the goal the step was for (TATC 0223: "Warm up the bread
        slice in the toaster." came as the first slice went in; the step, planned afresh, took
        a raw slice, and three more were toasted)."""
        if self.skill is not None and self.skill.finished_by_last_action(observation, belief):
            self.finished.append(self.current)
            self.plan = self.modules["planner"].plan(self.goal, belief, None)
        self.skill, self.failure = None, None

    def _retell(self, object_types: frozenset[str], doubted: frozenset[str] = frozenset()) -> None:
        """The planner and the navigator look for these types afresh (``Planner.told``,
        ``Navigator.reconsider``): an instance the planner tries again after the navigator
        gave it up would otherwise fail at once."""
        self.modules["planner"].told(object_types, doubted)
        if self.navigator is not None:  # a mapper for scripted skills may have none
            self.navigator.reconsider(object_types | doubted)

    def _looked_for(self) -> frozenset[str]:
        """The objects of the current plan's steps: what perception should not miss."""
        return frozenset(step.subgoal.object for step in self.plan.steps) if self.plan is not None else frozenset()

    def _outcome(self, observation: Observation) -> ActionOutcome | None:
        """The result of the low-level action this Follower took last (None after a Stop,
        an utterance, or at the start)."""
        last, self.last_action = self.last_action, None
        if last is None or observation.last_action != last.action:
            return None
        return ActionOutcome(last, observation.last_action_success, observation.error_message)

    def _question(self, plan: Plan, belief: Belief) -> Question | None:
        if self.briefing.suite == "alfred":  # no Commander to answer
            return None
        state = DialogueState(self.goal, plan.status, self.heard_since_question, self.questions, self.steps,
                              belief, plan.steps, self.failure, tuple(s.subgoal for s in self.finished), self.heard)
        return self.modules["dialogue_manager"].next_question(state)

    def _ask(self, question: Question) -> FollowerAction:
        self.questions += 1
        self.heard_since_question = False
        self.question, self.finished = question, []
        return FollowerAction.say(self.generator.ask(question).text)


def _failed_types(failure: SkillFailure | None) -> set[str]:
    """The types a failed step acted on: its object and its receptacle. A put into the only
    sink basin, given up as unreachable, left no plan at all ("no plan exists", no missing
    type): the Follower said Stop until the turn limit while the Commander repeated "Fill
    the mug with water." (TATC valid_unseen 0003)."""
    if failure is None:
        return set()
    subgoal = failure.step.subgoal
    return {t for t in (subgoal.object, subgoal.receptacle) if t}


def _meant(action: LowLevelAction, belief: Belief) -> str:
    """The type a click is meant for as the memory holds it (a put's or a pour's receptacle);
    "" for actions without a believed target."""
    key = action.receptacle_key if action.action in ("Place", "Pour") else action.object_key
    instance = belief.memory.instances.get(key or "")
    return instance.object_type if instance is not None and "x" in action.target else ""
