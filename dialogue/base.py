"""The ``Parser`` protocol that every registered parser implements, and sentence splitting."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from contracts.language import Intent, ParseContext, Subgoal, TaskSpec

_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=\S)")


@runtime_checkable
class Parser(Protocol):
    """Language -> symbols. ``parse`` never raises on odd input: it returns an intent with
    ``act=UNKNOWN`` and/or the words it did not understand in ``unknown``."""

    def parse(self, utterance: str, context: ParseContext | None = None) -> list[Intent]:
        """One intent per sentence of a dialogue utterance."""
        ...

    def parse_goal(self, goal: str, steps: Sequence[str] = ()) -> TaskSpec:
        """An ALFRED goal sentence (optionally with its step instructions) -> a task spec."""
        ...

    def parse_goals(self, items: Sequence[tuple[str, Sequence[str]]]) -> list[TaskSpec]:
        """Batch ``parse_goal`` (faster)."""
        ...

    def parse_step(self, instruction: str) -> list[Subgoal]:
        """A step instruction -> its subgoals, in order."""
        ...


def split_sentences(utterance: str) -> list[str]:
    parts = [p.strip() for p in _SENTENCE_RE.split(utterance.strip()) if p.strip()]
    return parts or [utterance.strip()]
