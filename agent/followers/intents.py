"""From words to the Follower's goal and hints, with whichever parser is configured.

``IntentReader.briefing_goal`` parses the benchmark's briefing (ALFRED: the goal sentence
and, if given, the step instructions; TATC: nothing, so the goal is empty unless the parser
is an oracle that knows the task anyway). ``IntentReader.read`` folds the Commander's new
utterances into the goal: a task statement sets the task, an instruction appends its
subgoals (TEACh's step-by-step Commanders; the next step given in answer to "What should I
do next?" or "Can you help me?" too), and location hints or location answers ("The knife is
in the drawer.", "The fridge is to your left.") are returned for the mapper's object memory.
``IntentReader.answered`` applies what an answer means for the question the Follower asked
last, against its Belief: an answer to "Which mug, ...?" ("The dirty one.", "The one on the
left.", "The mug is on the counter left of the stove.") picks that instance
(``Goal.preferred``, ``dialogue.reference.select``); "No." to "Should I slice the tomato?"
drops that step from the goal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from contracts.belief import Belief
from contracts.dialogue import Question
from contracts.language import Act, Intent, LocationHint, ParseContext, Parser, QuestionKind
from contracts.observation import FollowerBriefing
from contracts.planning import Goal
from dialogue.reference import select

# Steps whose point is a state of their object that the Follower only knows from its own
# actions (clean, filled, cooked, cold, switched on: the burner it switched may not be the
# one under the pot; a pour needs a filled container): said again, they make it doubt that
# state. A put said again ("Place a slice of potato on the plate.") asks for one more, not
# for a new state: doubting it made cooked slices raw again. A slice said
# again while the Follower believes it done asks for another whole to be sliced (the
# Commander's Progress Check may count a whole it did not slice).
STATE_STEPS = frozenset({"CleanObject", "FillObject", "HeatObject", "CoolObject", "PourObject", "SliceObject",
                         "ToggleObjectOn"})


class IntentReader:
    def __init__(self, parser: Parser) -> None:
        self.parser = parser
        self.last_target: str | None = None  # the object type under discussion (for "it")
        self.answers: list[Intent] = []  # the answers among the utterances read last
        self.mentioned: set[str] = set()  # object types the utterances read last instruct about or locate
        self.repeated: set[str] = set()  # ... the objects of state steps among them given before

    def briefing_goal(self, briefing: FollowerBriefing) -> Goal:
        """The task and steps of the briefing. Walks after the last manipulation ("Walk back
        to the microwave.", ALFRED-L's REV steps) say where to end, not what the task is: the
        task is parsed without them; walks alone with no goal sentence (NAV-ONLY) are no task."""
        parsed = [self.parser.parse_step(text) for text in briefing.step_texts]
        described = len(parsed)
        while described and parsed[described - 1] and all(sg.action == "GotoLocation" for sg in parsed[described - 1]):
            described -= 1
        steps = tuple(sg for subgoals in parsed for sg in subgoals)
        walks_only = described == 0 and bool(steps) and not briefing.goal_text.strip()
        task = None if walks_only else self.parser.parse_goal(briefing.goal_text, briefing.step_texts[:described])
        return Goal(task, steps)

    def read(self, utterances: Sequence[str], goal: Goal) -> tuple[Goal, list[LocationHint]]:
        """The goal after these utterances, and the location hints they gave."""
        hints: list[LocationHint] = []
        self.answers = []
        self.mentioned, self.repeated = set(), set()
        for text in utterances:
            context = ParseContext(task_known=goal.task is not None, last_target=self.last_target)
            for intent in self.parser.parse(text, context):
                goal = self._fold(intent, goal, hints)
        return goal, hints

    def _fold(self, intent: Intent, goal: Goal, hints: list[LocationHint]) -> Goal:
        if intent.target:
            self.last_target = intent.target
        if intent.act == Act.INSTRUCTION or intent.location is not None:
            self.mentioned.update(t for sg in intent.subgoals for t in (sg.object, sg.receptacle) if t)
            if intent.location is not None and intent.location.object:
                self.mentioned.add(intent.location.object)
            self.repeated.update(sg.object for sg in intent.subgoals
                                 if sg.object and sg.action in STATE_STEPS and sg in goal.subgoals)
        if intent.location is not None and intent.location.object:
            hints.append(intent.location)
            self.last_target = intent.location.object
        if intent.act == Act.ANSWER:
            self.answers.append(intent)
        if intent.act != Act.INSTRUCTION:
            return goal
        if intent.task is not None:
            goal = replace(goal, task=intent.task)
        if intent.subgoals:
            goal = replace(goal, subgoals=goal.subgoals + tuple(intent.subgoals))
            self.last_target = intent.subgoals[-1].object or self.last_target
        return goal

    def answered(self, question: Question | None, goal: Goal, belief: Belief) -> Goal:
        """The goal after the answers read last, for ``question`` (the Follower's last)."""
        if question is None or not self.answers:
            return goal
        if question.kind == QuestionKind.WHICH and question.target and question.candidates:
            others = tuple(i.key for i in belief.memory.of_type(question.target) if i.key not in question.candidates)
            key = select(question.candidates, self.answers, belief) or select(others, self.answers, belief)
            if key is not None:
                return goal.prefer(question.target, key)
        if question.kind == QuestionKind.CONFIRM and question.subgoal in goal.subgoals:
            if any(a.answer == "no" for a in self.answers):
                return replace(goal, subgoals=tuple(sg for sg in goal.subgoals if sg != question.subgoal))
        return goal
