"""From words to the Follower's goal and hints, with whichever parser is configured.

``IntentReader.briefing_goal`` parses the benchmark's briefing (ALFRED: the goal sentence
and, if given, the step instructions; TATC: nothing, so the goal is empty unless the parser
is an oracle that knows the task anyway). ``IntentReader.read`` folds the Commander's new
utterances into the goal: a task statement sets the task, an instruction appends its
subgoals (TEACh's step-by-step Commanders), and location hints or location answers ("The
knife is in the drawer.") are returned for the mapper's object memory.
"""

from __future__ import annotations

from collections.abc import Sequence

from contracts.language import Act, Intent, LocationHint, ParseContext, Parser
from contracts.observation import FollowerBriefing
from contracts.planning import Goal


class IntentReader:
    def __init__(self, parser: Parser) -> None:
        self.parser = parser
        self.last_target: str | None = None  # the object type under discussion (for "it")

    def briefing_goal(self, briefing: FollowerBriefing) -> Goal:
        task = self.parser.parse_goal(briefing.goal_text, briefing.step_texts)
        steps = tuple(sg for text in briefing.step_texts for sg in self.parser.parse_step(text))
        return Goal(task, steps)

    def read(self, utterances: Sequence[str], goal: Goal) -> tuple[Goal, list[LocationHint]]:
        """The goal after these utterances, and the location hints they gave."""
        hints: list[LocationHint] = []
        for text in utterances:
            context = ParseContext(task_known=goal.task is not None, last_target=self.last_target)
            for intent in self.parser.parse(text, context):
                goal = self._fold(intent, goal, hints)
        return goal, hints

    def _fold(self, intent: Intent, goal: Goal, hints: list[LocationHint]) -> Goal:
        if intent.target:
            self.last_target = intent.target
        if intent.location is not None and intent.location.object:
            hints.append(intent.location)
            self.last_target = intent.location.object
        if intent.act != Act.INSTRUCTION:
            return goal
        if intent.task is not None:
            goal = Goal(intent.task, goal.subgoals)
        if intent.subgoals:
            goal = Goal(goal.task, goal.subgoals + tuple(intent.subgoals))
            self.last_target = intent.subgoals[-1].object or self.last_target
        return goal
