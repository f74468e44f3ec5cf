"""The ``rules`` parser: spaCy analysis + lexicon + hand-written rules (no training).

Dialogue acts are decided per sentence (greeting, done/thanks, yes/no answer, question
kinds, acknowledgement, location hint, instruction); instructions carry subgoals and, for
a task statement, a TEACh task spec; goals map to ALFRED task specs.
"""

from __future__ import annotations

from collections.abc import Sequence

from contracts.language import (
    Act,
    Intent,
    ParseContext,
    Parser,
    QuestionKind,
    Subgoal,
    TaskSpec,
    has_text,
    split_sentences,
)
from contracts.registry import parser as parser_registry
from dialogue import lexicon as lx
from dialogue import semantics as sem
from dialogue.analysis import Analysis, analyse, analyse_many

_WH = {"what": QuestionKind.OTHER, "where": QuestionKind.WHERE, "which": QuestionKind.WHICH}
_CONFIRM_START = ("should", "shall", "do", "is", "does", "am", "are", "can", "did", "have", "was", "this", "that")
_POLITE = ("could", "can", "would", "will")
_PRESENT = {past: present for present, past in lx.PAST_TENSE.items()}
_DONE_PHRASES = ("that's all", "that is all", "all done", "we're done", "we are done", "you're done",
                 "you are done", "task is complete", "task is done", "good job", "well done", "nice work",
                 "great job", "all finished", "that's it", "that is it", "nothing else")


@parser_registry.register("rules")
class RulesParser(Parser):
    """Rule-based parsing with spaCy tokens/lemmas/POS, a PhraseMatcher lexicon and rules."""

    def parse(self, utterance: str, context: ParseContext | None = None) -> list[Intent]:
        context = context or ParseContext()
        sentences = split_sentences(utterance)
        intents = []
        for sentence, a in zip(sentences, analyse_many(sentences), strict=True):
            intent = self._sentence(sentence, a, context)
            intent.text = sentence
            intents.append(intent)
            if intent.task is not None:
                context = ParseContext(True, context.last_target, context.speaker)
        return intents

    def parse_goals(self, items: Sequence[tuple[str, Sequence[str]]]) -> list[TaskSpec | None]:
        texts = [g for g, _ in items] + [s for _, steps in items for s in steps]
        analyses = iter(analyse_many(texts))
        goals = [next(analyses) for _ in items]
        return [sem.goal_spec(g, [next(analyses) for _ in steps]) if has_text(text, steps) else None
                for g, (text, steps) in zip(goals, items, strict=True)]

    def parse_step(self, instruction: str) -> list[Subgoal]:
        return sem.subgoals(analyse(instruction))

    # -- dialogue acts -------------------------------------------------------------------
    def _sentence(self, sentence: str, a: Analysis, context: ParseContext) -> Intent:
        words = [w for w in a.words if w.isalnum() or w.startswith("'")]
        text = " ".join(words)
        first = words[0] if words else ""
        question_mark = sentence.rstrip().endswith("?")
        unknown = tuple(a.unknown)
        if not words:
            return Intent(Act.UNKNOWN, unknown=unknown)
        polite_request = first in _POLITE and len(words) > 1 and words[1] == "you" and bool(a.predicates)
        if first in lx.YES or first in lx.NO and not (first == "not" or a.predicates and first != "no"):
            answer = "yes" if first in lx.YES and first not in ("ok", "okay", "sure") else ("no" if first in lx.NO else None)
            if answer is not None:
                return self._answer(a, context, answer, unknown)
        if first in lx.GREETINGS or text.startswith(("good morning", "good afternoon", "good evening")):
            if not a.predicates and not a.mentions:
                return Intent(Act.GREETING, unknown=unknown)
        if not question_mark and (first in ("thanks", "thank") or any(p in text for p in _DONE_PHRASES)
                                  or text in ("done", "finished", "all done", "bye", "goodbye")):
            return Intent(Act.DONE, unknown=unknown)
        if (question_mark or first in _WH or first == "how") and not polite_request:
            return self._question(a, words, context, unknown)
        if text in ("on it", "will do", "got it", "i see", "understood", "sounds good") or (
                not a.predicates and not a.mentions and first in lx.ACKS):
            return Intent(Act.ACKNOWLEDGEMENT, unknown=unknown)
        report = self._report(a, words, context, unknown)
        if report is not None:
            return report
        hint = sem.location_hint(a, context.last_target)
        if hint is not None:
            return Intent(Act.ANSWER, location=hint, target=hint.object, unknown=unknown)
        task = sem.teach_task(a, context.task_known)
        if task is not None:
            return Intent(Act.INSTRUCTION, task=task, unknown=unknown)
        steps = tuple(sem.subgoals(a, context.last_target))
        direction = next((d for _, d, anchor in a.directions if anchor is None), None)
        if steps or a.predicates:
            return Intent(Act.INSTRUCTION, subgoals=steps, direction=direction, unknown=unknown)
        if a.mentions or direction or a.has("one"):
            return self._answer(a, context, None, unknown)
        return Intent(Act.UNKNOWN, unknown=unknown or tuple(w for w in words if w.isalpha()))

    def _report(self, a: Analysis, words: list[str], context: ParseContext, unknown: tuple[str, ...]) -> Intent | None:
        """"I rinsed the mug." (done) / "I could not open the fridge." (failed): a Follower's report."""
        if len(words) < 3 or words[0] != "i":
            return None
        failed = words[1] == "could" and words[2] in ("not", "n't")
        if failed:
            step = words[3:]
        elif words[1] in _PRESENT:
            step = [_PRESENT[words[1]], *words[2:]]
        else:
            return None
        steps = tuple(sem.subgoals(analyse(" ".join(step)), context.last_target))  # the step it reports
        if not steps:
            return None
        return Intent(Act.REPORT, subgoals=steps, answer="no" if failed else "yes", unknown=unknown)

    def _answer(self, a: Analysis, context: ParseContext, answer: str | None, unknown: tuple[str, ...]) -> Intent:
        hint = sem.location_hint(a, context.last_target)
        things = [m for m in a.mentions if not m.anchored and m.relation in (None, "with")]
        attributes = tuple(things[0].attributes) if things else ()
        if not things and not hint:  # "The dirty one."
            attributes = tuple(w for w in a.words if w in lx.ATTRIBUTES)
        direction = next((d for _, d, anchor in a.directions if anchor is None), None) if not hint else None
        target = hint.object if hint else (things[0].type if things else None)
        return Intent(Act.ANSWER, location=hint, target=target, answer=answer, direction=direction,
                      attributes=attributes, unknown=unknown)

    def _question(self, a: Analysis, words: list[str], context: ParseContext, unknown: tuple[str, ...]) -> Intent:
        first = words[0]
        text = " ".join(words)
        target_m = next((m for m in a.mentions if not m.anchored), None)
        target = target_m.type if target_m else None
        attributes = tuple(target_m.attributes) if target_m else ()
        if words[:2] in (["which", "way"], ["which", "direction"]) or text.startswith("how do i get to"):
            return Intent(Act.QUESTION, question=QuestionKind.DIRECTION, target=target or context.last_target,
                          unknown=unknown)
        if "help" in words[:4]:
            return Intent(Act.QUESTION, question=QuestionKind.HELP, target=target, unknown=unknown)
        if first == "where" or "where" in words[:3]:
            return Intent(Act.QUESTION, question=QuestionKind.WHERE, target=target or context.last_target, unknown=unknown)
        if first == "which" or "which" in words[:3]:
            return Intent(Act.QUESTION, question=QuestionKind.WHICH, target=target or context.last_target, unknown=unknown)
        if ("done" in words or "finished" in words or "complete" in words or "anything else" in text
                or text.startswith(("is that all", "is that it", "is there anything"))):
            return Intent(Act.QUESTION, question=QuestionKind.DONE, unknown=unknown)
        if first in ("what", "how") and any(w in words for w in ("next", "do", "now", "task", "start", "help")) and not a.mentions:
            return Intent(Act.QUESTION, question=QuestionKind.NEXT, unknown=unknown)
        if first in _CONFIRM_START:
            steps = tuple(sem.subgoals(a, context.last_target))
            return Intent(Act.QUESTION, question=QuestionKind.CONFIRM, subgoals=steps, target=target,
                          attributes=attributes, unknown=unknown)
        return Intent(Act.QUESTION, question=QuestionKind.OTHER, target=target, unknown=unknown)
