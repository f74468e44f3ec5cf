"""The ``trained`` parser: the shipped n-gram models (``dialogue/models/trained_parser.pt``)
for ALFRED goals (-> task spec: an ensemble of 3, averaged, that also reads the plan the step
model makes of the step instructions; the more probable of the independent decode and the best
field combination seen in training) and step instructions (-> subgoals). Dialogue acts and
TEACh task statements are decided by the rule-based parser, whose subgoals the step model
replaces for single-step imperative sentences it is confident about.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from contracts.language import (
    ALFRED_FIELDS,
    ALFRED_TYPE_FIELDS,
    Intent,
    ParseContext,
    Parser,
    Subgoal,
    TaskSpec,
    has_text,
)
from contracts.registry import parser as parser_registry
from dialogue import lexicon as lx
from dialogue import model as M
from dialogue.rules import RulesParser

_ACTION = {"ToggleObject": "ToggleObjectOn"}
# A combination of fields seen in training is preferred only when the independent decode is not
# more probable: in unseen floor plans unseen combinations are common (on the validation floor
# plans a 3-nat preference for seen ones cost 4 points of all-fields accuracy, 0.776 -> 0.735).
NOVELTY_MARGIN = 0.0
# Other readings of a type field kept on the TaskSpec (``alternatives``) for a Follower that
# finds the first reading nowhere: at least this probable, at most ALTERNATIVES of them. On
# the validation floor plans (a model trained on the others), of the 96 annotations whose
# parent is parsed as a type their floor plan lacks, the first alternative the floor plan has
# is the right one in 58 (0.05: 49; 0.001: 58), and in all 14 such lamps. The model that reads
# the steps as a plan (stop 51) is surer of its first reading: of the 124 type fields parsed as
# a type the floor plan lacks, the first alternative it has is right in 68 at 0.01, 72 at 0.001.
ALTERNATIVE_MIN = 0.001
ALTERNATIVES = 4


@lru_cache(maxsize=1)
def _type_names() -> dict[str, str]:
    names = {t.lower(): t for t in lx.object_types()}
    names.update({f"{t.lower()}sliced": f"{t}Sliced" for t in lx.SLICEABLE})
    names["glassbottle"] = "Bottle"
    return names


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[dict[str, M.FieldModel], dict]:
    return M.load(Path(path))


def _best(probs: dict[str, float], allowed: Callable[[str], bool]) -> str:
    options = [(p, label) for label, p in probs.items() if allowed(label)] or [(p, label) for label, p in probs.items()]
    return max(options)[1]


def _decode(p: dict[str, dict[str, float]]) -> TaskSpec:
    """The most probable spec that is consistent with the most probable task type: a lamp
    only for look_at_obj_in_light (which has no parent), a movable receptacle only for
    pick_and_place_with_movable_recep."""
    task = _best(p["task_type"], lambda _: True)
    look = task == "look_at_obj_in_light"
    movable = task == "pick_and_place_with_movable_recep"
    return TaskSpec(
        task_type=task,
        object_target=_best(p["object_target"], bool),
        parent_target=_best(p["parent_target"], lambda v: (v == "") == look),
        toggle_target=_best(p["toggle_target"], lambda v: (v != "") == look),
        mrecep_target=_best(p["mrecep_target"], lambda v: (v != "") == movable),
        object_sliced=_best(p["object_sliced"], lambda _: True) == "True",
    )


def _with_alternatives(spec: TaskSpec, p: dict[str, dict[str, float]]) -> TaskSpec:
    """``spec`` with the other readings of its (non-empty) type fields, most probable first."""
    chosen = spec.alfred_fields()
    spec.alternatives = {
        name: tuple(label for label, prob in sorted(p[name].items(), key=lambda kv: -kv[1])
                    if label and label != chosen[name] and prob >= ALTERNATIVE_MIN)[:ALTERNATIVES]
        for name in ALFRED_TYPE_FIELDS if chosen[name]}
    return spec


@parser_registry.register("trained")
class TrainedParser(Parser):
    """ALFRED goals and steps by the trained model; dialogue acts by the rules."""

    @dataclass
    class Params:
        model: str = ""  # a model file; empty = the shipped dialogue/models/trained_parser.pt

    def __init__(self, params: Params | None = None) -> None:
        self.params = params or self.Params()
        path = self.params.model or str(M.DEFAULT_MODEL)
        self.models, self.meta = _load(path)
        self.rules = RulesParser()
        if self.meta.get("lexicon") != M.lexicon_digest():
            warnings.warn("the trained parser model was trained with a different lexicon; retrain it with "
                          "'nesy parser train' for its measured accuracy", stacklevel=2)
        self._labels = self.models["goal0"].labels
        index = {f: {label: i for i, label in enumerate(self._labels[f])} for f in ALFRED_FIELDS}
        combos = [[index[f].get(v, -1) for f, v in zip(ALFRED_FIELDS, c, strict=True)] for c in self.meta.get("combos", [])]
        combos = [c for c in combos if -1 not in c]
        self._combos = np.array(combos, dtype=np.int64) if combos else None

    def parse(self, utterance: str, context: ParseContext | None = None) -> list[Intent]:
        return self.rules.parse(utterance, context)

    def parse_goals(self, items: Sequence[tuple[str, Sequence[str]]]) -> list[TaskSpec | None]:
        worded = [k for k, (g, s) in enumerate(items) if has_text(g, s)]
        specs: list[TaskSpec | None] = [None] * len(items)
        for k, spec in zip(worded, self._parse_worded([items[k] for k in worded]), strict=True):
            specs[k] = spec
        return specs

    def _parse_worded(self, items: Sequence[tuple[str, Sequence[str]]]) -> list[TaskSpec]:
        if not items:
            return []
        programs = M.programs(self.models["step"], [list(s) for _, s in items])
        feats = [M.features(g, list(s), program) for (g, s), program in zip(items, programs, strict=True)]
        goal_models = [m for name, m in sorted(self.models.items()) if name.startswith("goal")]
        runs = [m.probabilities(feats) for m in goal_models]
        probs = [{h: {label: sum(r[k][h][label] for r in runs) / len(runs) for label in runs[0][k][h]}
                  for h in runs[0][k]} for k in range(len(items))]
        return [_with_alternatives(self._joint(p), p) for p in probs]

    def _joint(self, p: dict[str, dict[str, float]]) -> TaskSpec:
        """The most probable field combination seen in training, unless the independent
        (constraint-respecting) decode is more than ``NOVELTY_MARGIN`` nats more probable
        (with 0, whichever of the two is more probable)."""
        independent = _decode(p)
        if self._combos is None:
            return independent
        logp = {f: np.log(np.array([p[f][label] for label in self._labels[f]]) + 1e-9) for f in ALFRED_FIELDS}
        scores = sum(logp[f][self._combos[:, k]] for k, f in enumerate(ALFRED_FIELDS))
        best = int(scores.argmax())
        ind = independent.alfred_fields()
        ind_score = sum(math.log(p[f][str(ind[f])] + 1e-9) for f in ALFRED_FIELDS)
        if ind_score - scores[best] > NOVELTY_MARGIN:
            return independent
        values = dict(zip(ALFRED_FIELDS, (self._labels[f][self._combos[best, k]] for k, f in enumerate(ALFRED_FIELDS)), strict=True))
        return TaskSpec(values["task_type"], values["object_target"], values["parent_target"], values["toggle_target"],
                        values["mrecep_target"], values["object_sliced"] == "True")

    def parse_step(self, instruction: str) -> list[Subgoal]:
        return self.parse_steps([instruction])[0]

    def parse_steps(self, instructions: Sequence[str]) -> list[list[Subgoal]]:
        names = _type_names()
        out: list[list[Subgoal]] = []
        for p in self.models["step"].predict([M.features(t) for t in instructions]):
            action = _ACTION.get(p["action"][0], p["action"][0])
            arg0 = names.get(p["arg0"][0], p["arg0"][0]) or None
            arg1 = names.get(p["arg1"][0], p["arg1"][0]) or None
            if action == "PutObject":
                out.append([Subgoal(action, arg0, arg1)])
            else:
                out.append([Subgoal(action, arg0)])
        return out
