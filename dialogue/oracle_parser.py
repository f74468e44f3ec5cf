"""``oracle-parser``: the task read from the episode instead of from the language.

A stand-in for language understanding (an oracle): ``parse_goal`` returns the episode's
true task (the TEACh task definition with its named parameters, or ALFRED's PDDL
parameters) whatever was said -- in TATC too, where the briefing has no words at all;
``parse`` of dialogue utterances returns no intents.
"""

from __future__ import annotations

from collections.abc import Sequence

from contracts.agents import OracleModule
from contracts.language import Intent, ParseContext, Parser, Subgoal, TaskSpec
from contracts.registry import parser
from contracts.tasks import named_params


@parser.register("oracle-parser")
class OracleParser(OracleModule, Parser):
    def _spec(self) -> TaskSpec:
        episode = self.oracle.episode
        if episode.suite == "tatc":
            return TaskSpec(teach_task=episode.task_name, teach_params=named_params(episode.task_name, episode.task_params))
        fields = {k: v for k, v in episode.pddl_params.items() if k in TaskSpec.__dataclass_fields__}
        return TaskSpec(task_type=episode.task_type, **fields)

    def parse(self, utterance: str, context: ParseContext | None = None) -> list[Intent]:
        return []

    def parse_goals(self, items: Sequence[tuple[str, Sequence[str]]]) -> list[TaskSpec]:
        return [self._spec() for _ in items]

    def parse_step(self, instruction: str) -> list[Subgoal]:
        return []
