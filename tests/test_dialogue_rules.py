"""Rules parser robustness: typos, capitalisation, word order, unknown words, dialogue acts."""

from __future__ import annotations

import pytest

from contracts.language import Act, LocationHint, ParseContext, Parser, QuestionKind, Subgoal
from contracts.registry import parser as parser_registry
from dialogue.rules import RulesParser


@pytest.fixture(scope="module")
def rp() -> RulesParser:
    return RulesParser()


def _subgoals(rp: RulesParser, text: str) -> tuple[Subgoal, ...]:
    (intent,) = rp.parse(text, ParseContext(task_known=True))
    return intent.subgoals


RINSE = (Subgoal("CleanObject", "Mug", "SinkBasin", 1, ("dirty",)),)


@pytest.mark.parametrize("text", [
    "Rinse the dirty mug in the sink.",
    "RINSE THE DIRTY MUG IN THE SINK",
    "rinse the dirty mug in the sink",
    "Rinse the dirty mgu in the snk.",  # typos
    "Rnise the dirty mug in the sink.",
    "Please rinse the dirty mug in the sink.",
    "In the sink, rinse the dirty mug.",  # word order
])
def test_variants_give_the_same_subgoal(rp: RulesParser, text: str) -> None:
    assert _subgoals(rp, text) == RINSE


@pytest.mark.parametrize("text, expected", [
    ("Put the apple in the fridge.", Subgoal("PutObject", "Apple", "Fridge")),
    ("In the fridge, put the apple.", Subgoal("PutObject", "Apple", "Fridge")),
    ("Place the remote contol on the sofa.", Subgoal("PutObject", "RemoteControl", "Sofa")),
    ("slice the TOMATO", Subgoal("SliceObject", "Tomato")),
    ("Turn the lamp on.", Subgoal("ToggleObjectOn", "DeskLamp")),
    ("Pick up the keys from the couch.", Subgoal("PickupObject", "KeyChain", "Sofa")),
    ("Put two slices of tomato on the plate.", Subgoal("PutObject", "TomatoSliced", "Plate", 2)),
])
def test_subgoals(rp: RulesParser, text: str, expected: Subgoal) -> None:
    assert _subgoals(rp, text) == (expected,)


def test_several_steps_and_pronouns(rp: RulesParser) -> None:
    assert _subgoals(rp, "Pick up the knife and slice the bread, then put it on the counter.") == (
        Subgoal("PickupObject", "Knife"), Subgoal("SliceObject", "Bread"), Subgoal("PutObject", "Bread", "CounterTop"))


def test_unknown_words_give_an_explicit_unknown_slot(rp: RulesParser) -> None:
    (intent,) = rp.parse("Put the zorblax in the fridge.")
    assert intent.act == Act.INSTRUCTION
    assert "zorblax" in intent.unknown
    (gibberish,) = rp.parse("florp wuzzle blick")
    assert gibberish.act == Act.UNKNOWN and gibberish.unknown
    for odd in ("", "   ", "?!", "1234", "ünïcödé ☃", "a" * 500, "the the the"):
        for intent in rp.parse(odd):  # never an exception
            assert intent.act in set(Act)
    assert rp.parse_goal("florp wuzzle").task_type  # a spec, never an exception
    assert rp.parse_step("florp wuzzle") == []


def test_dialogue_acts(rp: RulesParser) -> None:
    acts = [i.act for i in rp.parse("Hello! Could you make me a coffee? Thanks!")]
    assert acts == [Act.GREETING, Act.INSTRUCTION, Act.DONE]
    (q,) = rp.parse("where is the knife?")
    assert (q.question, q.target) == (QuestionKind.WHERE, "Knife")
    (hint,) = rp.parse("The knife is in the drawer left of the stove.")
    assert hint.location == LocationHint("Knife", "in", "Drawer", "left", "StoveBurner")
    (it,) = rp.parse("It is in the fridge.", ParseContext(last_target="Apple"))
    assert it.location == LocationHint("Apple", "in", "Fridge")
    (yes,) = rp.parse("yes")
    assert yes.answer == "yes"


def test_task_statement_depends_on_context(rp: RulesParser) -> None:
    (first,) = rp.parse("Put two slices of tomato on the plate.")
    assert first.task is not None and first.task.teach_task == "N Slices Of X In Y"
    (later,) = rp.parse("Put two slices of tomato on the plate.", ParseContext(task_known=True))
    assert later.task is None and later.subgoals


@pytest.mark.parametrize("text, task, params", [
    ("Please put all the butter knives, spoons and forks in one drawer.", "Put All X In One Y", {"X": "Silverware", "Y": "Drawer"}),
    ("Please put all the salt shakers and pepper shakers in one cabinet.", "Put All X In One Y", {"X": "Condiments", "Y": "Cabinet"}),
    ("Clean all the pots and pans.", "Clean All X", {"X": "Cookware"}),
    ("Put all the mugs in one cabinet.", "Put All X In One Y", {"X": "Mug", "Y": "Cabinet"}),
])
def test_a_list_of_types_in_a_task_names_the_class_they_make(rp: RulesParser, text: str, task: str, params: dict) -> None:
    (said,) = rp.parse(text)
    assert said.task is not None and said.task.teach_task == task and said.task.teach_params == params


@pytest.mark.parametrize("goal, steps, fields", [
    ("Put a clean mug in the coffee machine.", (), {"task_type": "pick_clean_then_place_in_recep", "object_target": "Mug", "parent_target": "CoffeeMachine"}),
    ("Examine a book by the light of a floor lamp.", (), {"task_type": "look_at_obj_in_light", "object_target": "Book", "toggle_target": "FloorLamp"}),
    ("Put two pencils on the desk.", (), {"task_type": "pick_two_obj_and_place", "object_target": "Pencil", "parent_target": "Desk"}),
    ("Put a pen in a mug on the desk.", (), {"task_type": "pick_and_place_with_movable_recep", "object_target": "Pen", "mrecep_target": "Mug", "parent_target": "Desk"}),
    ("Put a chilled slice of apple on the table.", (), {"task_type": "pick_cool_then_place_in_recep", "object_target": "Apple", "object_sliced": True}),
    ("Microwave a potato and put it in the garbage can.", (), {"task_type": "pick_heat_then_place_in_recep", "object_target": "Potato", "parent_target": "GarbageCan"}),
])
def test_goal_specs(rp: RulesParser, goal: str, steps: tuple[str, ...], fields: dict) -> None:
    spec = rp.parse_goal(goal, steps).alfred_fields()
    assert {k: spec[k] for k in fields} == fields


def test_registered_behind_the_protocol() -> None:
    assert {"rules", "trained"} <= set(parser_registry.names())
    assert isinstance(parser_registry.build("rules"), Parser)


def test_a_typo_is_one_letter_or_one_swap_away_not_two():
    from dialogue.lexicon import correct

    assert (correct("mgu"), correct("snk"), correct("frdige"), correct("tomatp")) == ("mug", "sink", "fridge", "tomato")
    assert correct("upper") == "upper"  # "paper" shares a deletion with it, at another place: two letters off
