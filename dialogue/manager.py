"""Dialogue managers: decide, each step and before the planner's skill acts, whether the
Follower should speak instead, and what to ask.

``rules`` asks when one of its triggers fires (each switchable in ``params``), in this order:

- idle, no goal: "What should I do next?";
- stuck: the same subgoal has failed ``stuck_failures`` times in a row: it says what failed
  and asks for help ("I could not open the fridge. Can you help me with the fridge?"); or
  the planner is FAILING with no plan at all: "Can you help me?";
- ambiguity: the next step picks up, puts, cleans, heats, cools, slices, fills or pours an
  object that matches several instances in memory (or the planner reports AMBIGUOUS), a
  step the Commander said names its type (``_spoken_of``: "Make coffee." names no
  referent), the Commander has not picked one, and the planned one is not one the Follower
  picked up or sliced since it last had nothing to do (the mapper's ``handled``: asked about
  a potato it had just cooked, the Commander named a raw one, cooked again: 35 steps in N
  Cooked Slices 0193; once a step is done, the next instruction may mean another one): a
  reference question naming up to ``max_candidates`` candidates by where they are ("Which
  mug, the one in the sink or the one on the counter?"); the answer picks the instance
  (``Goal.preferred``);
- not found: the planner has searched for the next step's object for ``explore_budget``
  Follower steps: "Where is the knife?"; if it is still not found after another budget,
  "Which way is the knife?" (answered relative to the Follower), at most
  ``direction_questions`` times per object: an answer it could not act on is mostly
  the same answer again, and each one restarts the search it interrupts;
- idle, nothing left to do (or only a search for more of an "all X" whose every X seen is
  done: ``PlannerStatus.exploring``, which asks no "Where is the X?"): it reports the step
  it finished last and asks for the next one, as TEACh's Followers do ("I rinsed the mug.
  What should I do next?").

It asks at most ``max_questions`` questions per episode, not counting "What should I do
next?" while it has no goal at all (as with the ``teach-lowlevel`` Commander, whose every
answer is a few action tokens: it has nothing else to do) nor right after reporting a step
it finished since it last spoke, other than the step it reported last ("I rinsed the mug.
What should I do next?": the TEACh Follower's turn after each step, not a clarification;
with the ``teach-goal`` Commander a Prepare Breakfast is a dozen such steps, and capped with
the clarifications the Follower went silent half-way in 7 of 8 valid_unseen episodes;
``cap_reports`` counts them too), one at a time (nothing more until the Commander has
spoken since the last one), and never the same question twice without
new information (since it was last asked, the Commander has said something and the Follower
has acted); a reference question only once for the same candidates (the places it names
change as the Follower moves, the answer would not).
``always-first`` is ``rules`` that asks where every object it would have to search for is
before searching (every search step of the plan, at once); ``never`` never asks (the
ablation baseline).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from contracts.belief import Belief
from contracts.dialogue import DialogueManager, DialogueState, Question
from contracts.errors import NesyError
from contracts.language import LocationHint, QuestionKind, Subgoal
from contracts.observation import ModuleContext
from contracts.planning import PlannerState
from contracts.registry import dialogue_manager
from dialogue import lexicon as lx
from dialogue.reference import describe_candidates

# Steps that move or change their object: which instance matters. (Any stove burner, cabinet
# or faucet does for toggling, opening or going to one: no reference question about those.)
HANDLED = ("PickupObject", "PutObject", "CleanObject", "HeatObject", "CoolObject", "SliceObject", "FillObject",
           "PourObject")
# Steps a plan may do by the appliance alone when the object already lies in it
IN_PLACE = ("CleanObject", "HeatObject", "CoolObject", "FillObject")


def _at_least(default: int, low: int) -> int:
    return field(default=default, metadata={"range": (low, None)})


@dataclass
class RuleParams:
    ambiguity: bool = True  # several known instances fit the next step's object: "Which X, ...?"
    not_found: bool = True  # searched explore_budget steps for the next step's object: "Where is the X?"
    stuck: bool = True  # the same subgoal failed stuck_failures times in a row: say so and ask for help
    idle: bool = True  # no goal, or nothing left: "(I rinsed the mug.) What should I do next?"
    max_questions: int = _at_least(10, 0)  # questions per episode (see _capped for the ones not counted)
    cap_reports: bool = False  # count "I did X. What should I do next?" against max_questions too
    explore_budget: int = _at_least(10, 0)  # Follower steps of searching for an object before asking
    direction_questions: int = _at_least(2, 0)  # "Which way is the X?" per object, after "Where is it?"
    stuck_failures: int = _at_least(2, 1)  # consecutive failures of one subgoal before asking for help
    max_candidates: int = _at_least(3, 2)  # candidates a reference question names


@dialogue_manager.register("rules")
class RuleDialogueManager(DialogueManager):
    Params = RuleParams

    def __init__(self, params: RuleParams | None = None) -> None:
        self.params = params or self.Params()
        for name in ("max_questions", "explore_budget", "direction_questions", "stuck_failures", "max_candidates"):
            low = type(self.params).__dataclass_fields__[name].metadata["range"][0]
            if getattr(self.params, name) < low:
                raise NesyError(f"dialogue_manager {getattr(type(self), 'registered_name', 'rules')}: params.{name} must be at least "
                                  f"{low}, got {getattr(self.params, name)}")

    def reset(self, context: ModuleContext) -> None:
        super().reset(context)
        self.asked: dict[Question, tuple[int, int]] = {}  # question -> (utterances heard, step) when last asked
        self.helped: dict[object, int] = {}  # failing subgoal -> help questions asked about it
        self.search: tuple[str, int] | None = None  # (object type, step its search (re)started)
        self.directions: dict[str, int] = {}  # object type -> "Which way is it?" questions asked
        self.done_with: set[str] = set()  # instances it handled before it last had nothing to do
        self.capped = 0  # questions asked that count against max_questions
        self.last_report: Subgoal | None = None  # the step the last "What next?" reported

    # ------------------------------------------------------------------ deciding
    def next_question(self, state: DialogueState) -> Question | None:
        self._track_search(state)
        if state.status.state == PlannerState.IDLE and state.belief is not None and state.belief.memory is not None:
            self.done_with |= {k for k, i in state.belief.memory.instances.items() if i.states.get("handled")}
        if not state.heard_since_last_question and self.asked:  # the last question is unanswered
            return None
        if state.goal.empty:
            triggers: tuple = (self._no_goal,)
        else:
            triggers = (self._stuck, self._ambiguity, self._not_found, self._idle)
        for trigger in triggers:
            question = trigger(state)
            if question is None or (self._capped(question, state) and self.capped >= self.params.max_questions):
                continue
            if question.target is not None and not lx.speakable(question.target):
                continue  # no words for it: the Commander could not understand the question
            if self._new(question, state):
                self._asked(question, state)
                return question
        return None

    def _capped(self, question: Question, state: DialogueState) -> bool:
        """Whether ``question`` counts against ``max_questions``: every question but asking
        for something to do with nothing to do at all (no clarification), and, unless
        ``cap_reports``, asking for the next step after reporting one finished that is not
        the step it reported last (the same step again, told again: no news, a loop; Breakfast
        0271 put a slice of bread on one plate and then the other 11 times)."""
        if question.kind != QuestionKind.NEXT:
            return True
        if state.goal.empty:
            return False
        return question.report is None or self.params.cap_reports or question.report == self.last_report

    def _new(self, question: Question, state: DialogueState) -> bool:
        """Not asked before, or since it was the Commander has said something and the
        Follower has acted (on it): an answer it could not act on is not asked for again."""
        if question.kind == QuestionKind.WHICH:  # an answer that picked none would not pick one again
            return not any(q.kind == QuestionKind.WHICH and q.target == question.target
                           and set(q.candidates) >= set(question.candidates) for q in self.asked)
        if question not in self.asked:
            return True
        heard, step = self.asked[question]
        return state.heard > heard and state.step > step

    def _asked(self, question: Question, state: DialogueState) -> None:
        self.asked[question] = (state.heard, state.step)
        self.capped += self._capped(question, state)
        if question.kind == QuestionKind.NEXT and question.report is not None:
            self.last_report = question.report
        if question.kind in (QuestionKind.WHERE, QuestionKind.DIRECTION) and self.search is not None:
            self.search = (self.search[0], state.step)  # another budget before asking about it again
        if question.kind == QuestionKind.DIRECTION:
            self.directions[question.target] = self.directions.get(question.target, 0) + 1
        if question.kind == QuestionKind.HELP and question.report is not None:
            self.helped[question.report] = self.helped.get(question.report, 0) + 1

    # ------------------------------------------------------------------ triggers
    def _no_goal(self, state: DialogueState) -> Question | None:
        return Question(QuestionKind.NEXT) if self.params.idle and state.goal.empty else None

    def _stuck(self, state: DialogueState) -> Question | None:
        failure = state.failure
        if not self.params.stuck:
            return None
        if state.status.state == PlannerState.FAILING and not state.steps:
            # the planner finds no plan at all: ask for help at once, whatever failed before
            # (a burner clicked in vain twice left no plan, and the last failure, once, hid
            # that: Boil Potato 0098 waited silently for 950 turns)
            return Question(QuestionKind.HELP, state.status.target)
        if failure is None:
            return None
        subgoal = failure.step.subgoal
        if failure.failures < self.params.stuck_failures * (self.helped.get(subgoal, 0) + 1):
            return None
        return Question(QuestionKind.HELP, subgoal.object, report=subgoal, report_failed=True)

    def _ambiguity(self, state: DialogueState) -> Question | None:
        if not self.params.ambiguity:
            return None
        status = state.status
        if status.state == PlannerState.AMBIGUOUS and status.target and len(status.candidates) >= 2:
            return self._which(state, status.target, status.candidates)
        if not state.steps or state.steps[0].search or state.belief is None or state.belief.memory is None:
            return None
        kind, key = _referent(state)
        belief = state.belief
        if kind is None or kind.endswith("Sliced") or not _spoken_of(state, kind) or _every_instance_counts(state, kind):
            return None
        if state.goal.preferred_key(kind) in belief.memory.instances:
            return None
        planned = belief.memory.instances.get(key or "")
        if planned is not None and planned.states.get("handled") and key not in self.done_with:
            return None  # the one it is working with
        held = belief.memory.held
        if held is not None and belief.memory.instances[held].object_type == kind:
            return None
        keys = [i.key for i in belief.memory.of_type(kind)]
        if len(keys) < 2:
            return None
        keys.sort(key=lambda k: (k != key, _distance(belief, k), k))  # the planned one, then the nearest
        return self._which(state, kind, tuple(keys[: self.params.max_candidates]))

    def _which(self, state: DialogueState, kind: str, keys: tuple[str, ...]) -> Question | None:
        """"Which X, the one ... or the one ...?" over the candidates the words tell apart
        (the first of each description); none when fewer than two are left: "Which bread,
        the one in the microwave behind you or the one in the microwave behind you?" (TATC
        0265, twins of one loaf) has no answer that picks one."""
        known = state.belief is not None and state.belief.memory is not None
        places = describe_candidates(state.belief, keys) if known else ()
        if places:
            first: dict[LocationHint, str] = {}
            for key, place in zip(keys, places, strict=True):
                first.setdefault(place, key)
            if len(first) < 2:
                return None
            keys, places = tuple(first.values()), tuple(first)
        return Question(QuestionKind.WHICH, kind, keys, places=places)

    def _searching(self, state: DialogueState) -> str | None:
        status = state.status
        if status.state == PlannerState.SEARCHING and status.target:
            return status.target
        if state.steps and state.steps[0].search:
            return state.steps[0].subgoal.object
        return None

    def _track_search(self, state: DialogueState) -> None:
        target = self._searching(state)
        if target is None:
            self.search = None
        elif self.search is None or self.search[0] != target:
            self.search = (target, state.step)

    def _not_found(self, state: DialogueState) -> Question | None:
        if not self.params.not_found or self.search is None or state.status.exploring:
            return None
        target, since = self.search
        if state.step - since < self.params.explore_budget:
            return None
        where = Question(QuestionKind.WHERE, target)
        if where not in self.asked:
            return where
        if self.directions.get(target, 0) >= self.params.direction_questions:
            return None
        return Question(QuestionKind.DIRECTION, target)

    def _idle(self, state: DialogueState) -> Question | None:
        """Nothing left to do, or only looking for more of what the task is about (every
        X it has seen of "all X" is done): the Commander knows what is left ("Put all the
        potatoes and lettuces in the fridge.": asked where a lettuce is, it named the one
        already in the fridge, and the Follower searched for 500 steps; TATC 0073)."""
        status = state.status
        if not self.params.idle or state.goal.empty or not (status.state == PlannerState.IDLE or status.exploring):
            return None
        return Question(QuestionKind.NEXT, report=state.finished[-1] if state.finished else None)


def _distance(belief: Belief, key: str) -> float:
    x, _, z = belief.memory.instances[key].position
    return math.hypot(x - belief.pose.x, z - belief.pose.z)


def _referent(state: DialogueState) -> tuple[str | None, str | None]:
    """The object type the next step moves or changes, and the instance the plan bound: the
    plan's first step when it is such a step. When no step of the plan moves or changes
    anything, the object of the Commander's last step if it is to be changed where it lies
    (``IN_PLACE``; the instance unknown): cleaning a plate that already lies in the basin is
    the faucet's steps alone, and told "Rinse the dirty plate." again, the Follower turned
    the tap off and on at the clean plate for 900 steps instead of asking which plate (TATC
    0052)."""
    first = state.steps[0]
    if first.subgoal.action in HANDLED:
        return first.subgoal.object, first.object_key
    if any(step.subgoal.action in HANDLED for step in state.steps) or not state.goal.subgoals:
        return None, None
    said = state.goal.subgoals[-1]
    return (said.object, None) if said.action in IN_PLACE else (None, None)


def _spoken_of(state: DialogueState, kind: str) -> bool:
    """The Commander's steps name the type ("Rinse the mug."): that mug is a referent. A task
    statement alone ("Make coffee.") names none: any mug will do, and asked "Which mug?"
    the teach-goal Commander names the one its check ranks first, often a third one
    elsewhere ("The tomato is in the sink.": Salad 0240 walked 50 steps more than without
    questions)."""
    return any(kind in (s.object, s.receptacle) for s in state.goal.subgoals)


def _every_instance_counts(state: DialogueState, kind: str) -> bool:
    """The task is about every X ("Clean all the mugs."), so no X needs picking out."""
    task = state.goal.task
    return task is not None and " All " in f" {task.teach_task} " and kind in task.teach_params.values()


@dialogue_manager.register("always-first")
class AlwaysFirstDialogueManager(RuleDialogueManager):
    """``rules``, but it first asks where every object the plan would search for is, once
    each and before searching (``explore_budget`` then only spaces "Which way is it?")."""

    def _not_found(self, state: DialogueState) -> Question | None:
        if self.params.not_found and not state.status.exploring:
            for step in state.steps:
                if step.search and step.subgoal.object:
                    where = Question(QuestionKind.WHERE, step.subgoal.object)
                    if where not in self.asked:
                        return where
        return super()._not_found(state)


@dialogue_manager.register("never")
class SilentDialogueManager(DialogueManager):
    def next_question(self, state: DialogueState) -> Question | None:
        return None
