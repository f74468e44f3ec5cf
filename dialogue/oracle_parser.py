"""``oracle-parser``: the task read from the episode instead of from the language.

A stand-in for language understanding (an oracle): ``parse_goal`` returns the episode's
true task (TEACh task name and parameters, or ALFRED's PDDL parameters) whatever was said;
``parse`` of dialogue utterances returns no intents.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent.interfaces import OracleModule
from contracts.language import Intent, ParseContext, Subgoal, TaskSpec
from contracts.registry import parser


@parser.register("oracle-parser")
class OracleParser(OracleModule):
    def _spec(self) -> TaskSpec:
        episode = self.oracle.episode
        if episode.suite == "tatc":
            params = {f"#{i}": value for i, value in enumerate(episode.task_params)}
            return TaskSpec(teach_task=episode.task_name, teach_params=params)
        fields = {k: v for k, v in episode.pddl_params.items() if k in TaskSpec.__dataclass_fields__}
        return TaskSpec(task_type=episode.task_type, **fields)

    def parse(self, utterance: str, context: ParseContext | None = None) -> list[Intent]:
        return []

    def parse_goal(self, goal: str, steps: Sequence[str] = ()) -> TaskSpec:
        return self._spec()

    def parse_goals(self, items: Sequence[tuple[str, Sequence[str]]]) -> list[TaskSpec]:
        return [self._spec() for _ in items]

    def parse_step(self, instruction: str) -> list[Subgoal]:
        return []
