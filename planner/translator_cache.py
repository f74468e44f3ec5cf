"""What Fast Downward's translator computes from the domain alone, computed once per domain
and reused for every problem: the normalized Datalog program of the reachability analysis
(its rules; the facts come from each problem) and the lifted invariants (mutex groups are
instantiated from them for each problem).

On our household problems (about 15 objects) this constant part is a third of a
translation: a two-object problem took 25 ms of CPU, 6 ms with the cache; the 70 problems of
``nesy bench planner`` a median 45 ms, 28 ms with it (most of the rest is computing the
model and instantiating). ``reusing_domain_work(domain, task)`` patches the two translator
steps that do it (``instantiate.explore`` and ``invariant_finder.get_groups``) for the
duration of one translation.

Equivalence. The reachability rules of the goal, and of the axioms that normalizing makes of
a goal with disjunctions (they name objects), are made per problem; those of the domain's
actions and axioms depend on the domain only, and the cache key is the domain text and
their text (actions and axioms named by their index in the task). The cached rules name
the first task's actions and axioms, which the model's atoms carry into instantiation:
they equal this task's (same domain text, same normalization), and instantiating does not
change them. Invariants are synthesised without the problem's reachable action parameters
(``find_invariants(task, None)``), which checks every operator instance, so each invariant
found holds for every problem of the domain (given the parameters, the translator may find
a few more; on the bench's 70 problems it found none). Tests check that the SAS+ output
equals the translator's own.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from dataclasses import dataclass
from unittest import mock

CACHE_SIZE = 16  # domains remembered


@dataclass(frozen=True)
class DomainWork:
    """The problem-independent part of one translation."""

    rules: tuple  # pddl_to_prolog.Rule, normalized and split into binary joins
    facts: tuple  # pddl.Atom facts that normalization made of rules without conditions
    needs_object: bool  # some rule has an @object condition (one fact per object)
    invariants: list  # invariants.Invariant, lifted


_WORK: OrderedDict[tuple[str, str], DomainWork] = OrderedDict()


@contextlib.contextmanager
def reusing_domain_work(domain: str, task):
    """Within this block the translator (``main.pddl_to_sas``) reuses the cached work of
    ``domain`` (its PDDL text) for ``task`` (a normalized ``pddl.Task`` of it)."""
    from fast_downward.translate import instantiate, invariant_finder

    shared, own = _exploration_rules(task)
    work = domain_work(domain, task, shared)
    with mock.patch.object(instantiate, "explore", lambda task: _explore(task, work, own)), \
            mock.patch.object(invariant_finder, "get_groups", lambda task, params=None: _groups(task, work)):
        yield


def _exploration_rules(task) -> tuple[list, list]:
    """The reachability rules (conditions, effect) of the task's actions and axioms, and
    those of its goal: the goal's own rule and the axioms normalizing made of it (the ones
    naming objects)."""
    from fast_downward.translate import normalize

    shared: list = []
    own: list = []
    for proxy in normalize.all_conditions(task):
        rules: list = []
        proxy.build_rules(rules)
        goal = isinstance(proxy, normalize.GoalConditionProxy) or any(
            not arg.startswith("?") for conditions, effect in rules for atom in (effect, *conditions) for arg in atom.args)
        (own if goal else shared).extend(rules)
    return shared, own


def domain_work(domain: str, task, rules: list) -> DomainWork:
    """The cached work of ``domain`` whose task-independent reachability ``rules`` are
    these (made now if new)."""
    from fast_downward.translate import invariant_finder

    labels = {id(schema): f"{type(schema).__name__}#{n}" for n, schema in enumerate(_schemas(task))}

    def text(atom) -> str:
        return f"{labels.get(id(atom.predicate), atom.predicate)}({', '.join(atom.args)})"

    key = (domain, "\n".join(f"{text(effect)} :- {', '.join(map(text, conditions))}" for conditions, effect in rules))
    if key in _WORK:
        _WORK.move_to_end(key)
        return _WORK[key]
    normalized, facts = _normalized(rules, "p$")
    work = _WORK[key] = DomainWork(normalized, facts, _needs_object(normalized),
                                   list(invariant_finder.find_invariants(task, None)))
    while len(_WORK) > CACHE_SIZE:
        _WORK.popitem(last=False)
    return work


def _normalized(raw: list, prefix: str) -> tuple[tuple, tuple]:
    """The Datalog rules (condition, effect) normalized and split into binary joins (new
    predicates named ``prefix`` + a number), and the facts normalizing made. (A rule whose
    effect has a variable its conditions do not bind gets an ``@object`` condition, whose
    facts ``_explore`` adds per problem.)"""
    import itertools

    from fast_downward.translate import pddl_to_prolog

    program = pddl_to_prolog.PrologProgram()
    program.new_name = (f"{prefix}{n}" for n in itertools.count())
    for conditions, effect in raw:
        program.add_rule(pddl_to_prolog.Rule(conditions, effect))
    program.normalize()
    program.split_rules()
    return tuple(program.rules), tuple(fact.atom for fact in program.facts)


def _explore(task, work: DomainWork, own_rules: list):
    """``instantiate.explore`` with the cached rules and the goal's (normalized here): the
    problem's facts, the model, the ground actions and axioms."""
    from fast_downward.translate import build_model, instantiate, pddl, pddl_to_prolog, timers

    with timers.timing("Generating Datalog program (cached rules)"):
        program = pddl_to_prolog.PrologProgram()
        pddl_to_prolog.translate_facts(program, task)
        goal_rules, goal_facts = _normalized(own_rules, "g$")
        program.rules = [*work.rules, *goal_rules]
        if work.needs_object or _needs_object(goal_rules):
            for name in sorted(program.objects):
                program.add_fact(pddl.Atom("@object", [name]))
        for atom in (*work.facts, *goal_facts):
            program.add_fact(atom)
    model = build_model.compute_model(program)
    with timers.timing("Completing instantiation"):
        return instantiate.instantiate(task, model)


def _needs_object(rules) -> bool:
    return any(atom.predicate == "@object" for rule in rules for atom in rule.conditions)


def _schemas(task) -> tuple:
    return (*task.actions, *task.axioms)


def _groups(task, work: DomainWork):
    """``invariant_finder.get_groups`` from the cached invariants."""
    from fast_downward.translate import invariant_finder

    return list(invariant_finder.useful_groups(work.invariants, task.init))
