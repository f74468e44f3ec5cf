"""Who may import what: the rules of docs/architecture.md hold on the source tree, and the
checker does catch each kind of violation."""

from __future__ import annotations

from agent.import_rules import (
    follower_run_modules,
    follower_violations,
    import_graph,
    imports_of,
    package_violations,
    violations,
)


def test_the_source_tree_follows_the_import_rules():
    found = violations()
    assert not found, "\n".join(map(str, found))


def test_the_graph_sees_function_level_relative_and_type_checking_imports():
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "from ..other import thing\n"
        "if TYPE_CHECKING:\n    from simulator.sim import Simulator\n"
        "def f():\n    import agent.runner\n"
    )
    found = imports_of(source, "planner.pkg.mod")
    assert {"planner.pkg.sibling", "planner.other.thing", "simulator.sim", "agent.runner"} <= found
    graph = import_graph()
    assert "contracts.observation" in graph["simulator.sim"]
    assert all(not m.startswith("agent") for deps in (graph[k] for k in graph if k.startswith("simulator")) for m in deps)


def test_each_rule_catches_its_violation():
    graph = {
        "simulator.sim": {"agent.errors"},  # the cycle this issue removed
        "contracts.types": {"simulator.geometry"},  # contracts import nothing of the project
        "mapping.semantic": {"perception.maskrcnn"},  # families do not import each other
        "perception.detector": {"agent.runner"},  # nor agent
    }
    bad = {(v.module, v.imported) for v in package_violations(graph)}
    assert bad == {(m, next(iter(d))) for m, d in graph.items()}
    chain = {"dialogue.rules": {"dialogue.lexicon"}, "dialogue.lexicon": {"simulator.object_types"},
             "simulator.object_types": set(), "perception.oracle_seg": {"simulator.sim"}}
    found = follower_violations(chain, {"parser:rules": "dialogue.rules"})
    assert [str(v) for v in found] == ["dialogue.rules imports dialogue.lexicon -> simulator.object_types: parser:rules "
                                       "is run by Followers and is not named oracle-*; it must not reach simulator"]


def test_follower_run_modules_are_the_registered_non_oracle_ones():
    modules = follower_run_modules()
    assert {"parser:rules", "parser:trained", "dialogue_manager:rules", "follower:modular"} <= set(modules)
    assert not any(label.split(":")[1].startswith("oracle") for label in modules)
