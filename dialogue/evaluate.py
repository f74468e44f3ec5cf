"""The ALFRED goal-parsing benchmark: exact-match accuracy per field and for all fields, and
how many misparsed annotations name their gold type nowhere in their words."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from contracts.language import ALFRED_FIELDS, ALFRED_TYPE_FIELDS, Parser
from dialogue.alfred_data import Annotation
from dialogue.model import named_types

Progress = Callable[[int, int], None]


def evaluate(parser: Parser, annotations: list[Annotation], use_steps: bool = True,
             batch: int = 512, progress: Progress | None = None) -> dict[str, Any]:
    """Per-field and all-fields exact match over ``annotations``, plus throughput."""
    correct = dict.fromkeys(ALFRED_FIELDS, 0)
    correct_all = 0
    unnamed = 0
    per_type: dict[str, list[int]] = {}
    utterances = 0
    start = time.perf_counter()
    for lo in range(0, len(annotations), batch):
        chunk = annotations[lo: lo + batch]
        items = [(a.goal, a.steps if use_steps else ()) for a in chunk]
        utterances += sum(1 + len(steps) for _, steps in items)
        for ann, spec in zip(chunk, parser.parse_goals(items), strict=True):
            predicted = spec.alfred_fields()
            ok = True
            for name in ALFRED_FIELDS:
                hit = predicted[name] == ann.gold[name]
                correct[name] += hit
                ok &= hit
            correct_all += ok
            unnamed += not ok and _gold_unnamed(ann, predicted, use_steps)
            stats = per_type.setdefault(ann.gold["task_type"], [0, 0])
            stats[0] += ok
            stats[1] += 1
        if progress:
            progress(min(lo + batch, len(annotations)), len(annotations))
    seconds = time.perf_counter() - start
    n = max(len(annotations), 1)
    out: dict[str, Any] = {"annotations": len(annotations)}
    out.update({name: round(correct[name] / n, 4) for name in ALFRED_FIELDS})
    out["all_fields"] = round(correct_all / n, 4)
    out["misparsed"] = len(annotations) - correct_all
    # misparsed with a wrong type field whose gold type no word of the goal or steps names
    # ("spoon" for a Ladle): what text alone can hardly get right
    out["misparsed_gold_type_unnamed"] = unnamed
    out["all_fields_by_task_type"] = {k: round(v[0] / v[1], 4) for k, v in sorted(per_type.items())}
    out["utterances"] = utterances
    out["seconds"] = round(seconds, 3)
    out["utterances_per_second"] = round(utterances / seconds, 1) if seconds > 0 else None
    out["uses_step_instructions"] = use_steps
    return out


def _gold_unnamed(ann: Annotation, predicted: dict[str, Any], use_steps: bool) -> bool:
    """Is a wrongly parsed type field's gold type named nowhere in the words the parser read?"""
    wrong = [str(ann.gold[f]) for f in ALFRED_TYPE_FIELDS if predicted[f] != ann.gold[f] and ann.gold[f]]
    if not wrong:
        return False
    named = named_types(" ".join((ann.goal, *(ann.steps if use_steps else ()))))
    return any(gold.removesuffix("Sliced") not in named for gold in wrong)
