"""Our translation (the domain parsed once, the translator's domain-only work done once)
gives the SAS+ output of Fast Downward's own parser and translator for each problem,
whatever problems came before (a use changes neither the parsed domain nor the cache), and
problems of one domain share one cache entry."""

from __future__ import annotations

import contextlib
import io

import pytest

from planner import translator_cache
from planner.domain import DOMAIN
from planner.fast_downward import _translator, translate

BASE = "(handempty) (present a) (present b) (present c) (present d) (present e)"
PROBLEMS = [
    # plain goal
    (BASE + " (at a) (pickupable b) (receptacle c) (can-put b c) (in b d) (receptacle d)", "(in b c)"),
    # a goal with a disjunction (normalizing makes axioms of it, naming objects)
    (BASE + " (pickupable b) (receptacle c) (receptacle d) (can-put b c) (can-put b d)",
     "(or (within b c) (within b d))"),
    # appliances: conditional effects over every object
    (BASE + " (pickupable a) (fillable a) (dirty a) (basin b) (faucet c) (toggleable c) (controls c b)"
     " (receptacle b) (can-put a b)", "(and (not (dirty a)) (water a) (not (on c)))"),
    (BASE + " (pickupable a) (cookable a) (microwave b) (openable b) (toggleable b) (receptacle b) (can-put a b)",
     "(and (cooked a) (heated a))"),
    # the first problem again, after the others
    (BASE + " (at a) (pickupable b) (receptacle c) (can-put b c) (in b d) (receptacle d)", "(in b c)"),
]


def problem_text(init: str, goal: str) -> str:
    return f"(define (problem t) (:domain household) (:objects a b c d e) (:init {init}) (:goal {goal}))"


def fast_downwards_own(domain: str, problem: str) -> str:
    lisp_parser, parsing_functions, normalize, translate_main = _translator()
    with contextlib.redirect_stdout(io.StringIO()):
        task = parsing_functions.parse_task(lisp_parser.parse_nested_list(domain.splitlines()),
                                            lisp_parser.parse_nested_list(problem.splitlines()))
        normalize.normalize(task)
        out = io.StringIO()
        translate_main.pddl_to_sas(task).output(out)
    return out.getvalue()


@pytest.fixture
def empty_cache(monkeypatch):
    monkeypatch.setattr(translator_cache, "_WORK", type(translator_cache._WORK)())
    return translator_cache._WORK


def test_cached_translation_equals_fast_downwards_own_in_any_order(empty_cache):
    for init, goal in PROBLEMS:
        problem = problem_text(init, goal)
        assert translate(DOMAIN, problem) == fast_downwards_own(DOMAIN, problem), goal
    assert len(empty_cache) == 1  # goals (with their axioms) are not part of the cached work


def test_another_domain_gets_its_own_entry(empty_cache):
    without_slicing = DOMAIN.replace("(:action slice", "(:action cut")
    problem = problem_text(*PROBLEMS[0])
    assert translate(DOMAIN, problem) == fast_downwards_own(DOMAIN, problem)
    assert translate(without_slicing, problem) == fast_downwards_own(without_slicing, problem)
    assert len(empty_cache) == 2


def test_the_patched_translator_steps_are_restored_after_a_translation():
    from fast_downward.translate import instantiate, invariant_finder

    explore, get_groups = instantiate.explore, invariant_finder.get_groups
    translate(DOMAIN, problem_text(*PROBLEMS[0]))
    assert (instantiate.explore, invariant_finder.get_groups) == (explore, get_groups)
