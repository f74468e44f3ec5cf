"""The ablation suite: the default config against itself with one module swapped, on the
same episodes, and one report comparing them.

``ABLATIONS`` lists each ablation by the name of its config (``configs/ablations/NAME.yaml``
includes ``default.yaml`` and changes one thing) and what it swaps. ``run_ablations`` runs
the default and each ablation (or the ones named) through the evaluation harness, each
into ``OUT/NAME``: an interrupted suite resumes where it stopped when the same command is
run again. It then writes ``OUT/report.md``: the ablation table (success and its
difference from the default, goal conditions, steps, questions, episodes per hour) above
``nesy report``'s side-by-side tables and plots of the same runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contracts.errors import NesyError

DEFAULT = "default"


@dataclass(frozen=True)
class Ablation:
    name: str  # configs/ablations/NAME.yaml, and the run folder OUT/NAME
    swaps: str  # what differs from the default


ABLATIONS = (
    Ablation("oracle-seg", "perception: Mask R-CNN -> oracle-seg (the renderer's masks)"),
    Ablation("oracle-map", "mapper: semantic map -> oracle-map (the simulator's state)"),
    Ablation("rules-parser", "parser: trained -> rules"),
    Ablation("fixed-templates", "planner: PDDL -> fixed templates"),
    Ablation("no-replan", "planner: replanning on -> off"),
    Ablation("questions-never", "dialogue manager: rules -> never"),
    Ablation("uniform-prior", "search prior: learned -> uniform"),
    Ablation("goal-only-commander", "Commander: subgoal language -> goal only (teach-goal)"),
    Ablation("lowlevel-commander", "Commander: subgoal language -> low-level tokens (teach-lowlevel)"),
)


class AblationError(NesyError):
    """An ablation name that is not in the suite."""


@dataclass(frozen=True)
class AblationRequest:
    suite: str
    split: str
    out: str | Path
    only: Sequence[str] = ()  # ablation names (default: all)
    overrides: Sequence[str] = ()  # applied to every run, the default's too
    episodes: int | None = None
    per_task: int | None = None
    workers: int = 1
    data: str | None = None


def chosen(only: Sequence[str]) -> list[Ablation]:
    known = {a.name: a for a in ABLATIONS}
    unknown = [name for name in only if name not in known]
    if unknown:
        raise AblationError(f"unknown ablation(s) {', '.join(unknown)}; the suite has: {', '.join(known)}")
    return [a for a in ABLATIONS if not only or a.name in only]


def run_ablations(request: AblationRequest, say: Callable[[str], None] = print) -> tuple[Path, list[str]]:
    """Run the default and the chosen ablations (resuming finished episodes); returns the
    report's path and the ablation table (markdown lines)."""
    from agent.evaluation.harness import EvalRequest, run_evaluation

    ablations = chosen(request.only)
    out = Path(request.out)
    summaries: dict[str, dict[str, Any]] = {}
    for name, config in [(DEFAULT, DEFAULT), *((a.name, f"ablations/{a.name}") for a in ablations)]:
        say(f"== {name}: nesy eval {config} --suite {request.suite} --split {request.split} --out {out / name}")
        run = run_evaluation(EvalRequest(
            config=config, overrides=request.overrides, suite=request.suite, split=request.split,
            out=out / name, episodes=request.episodes, per_task=request.per_task, workers=request.workers,
            data=request.data,
        ))
        summaries[name] = run.summary
    return write_ablation_report(out, summaries, {a.name: a.swaps for a in ablations})


def write_ablation_report(out: Path, summaries: dict[str, dict[str, Any]],
                          swaps: dict[str, str]) -> tuple[Path, list[str]]:
    """OUT/report.md: the ablation table, then ``nesy report``'s tables of the same runs."""
    from agent.evaluation.report import write_report

    path = write_report([out / name for name in summaries], out / "report.md")
    table = ablation_table(summaries, swaps)
    path.write_text("\n".join(table) + "\n\n" + path.read_text())
    return path, table


def ablation_table(summaries: dict[str, dict[str, Any]], swaps: dict[str, str]) -> list[str]:
    base = summaries[DEFAULT]
    lines = ["# Ablations: the default with one module swapped", "",
             f"Suite {base['suite']} / {base['split']}, {base['episodes']} episodes per run; "
             f"the default's oracles: {', '.join(base['oracles']) or 'none'}.", "",
             "| run | swaps | success | vs default | goal conditions | steps | questions | episodes / hour |",
             "|---|---|---|---|---|---|---|---|"]
    for name, s in summaries.items():
        delta = "" if name == DEFAULT else f"{100 * (s['success_rate'] - base['success_rate']):+.1f} pts"
        lines.append(f"| {name} | {swaps.get(name, '(the default)')} | {100 * s['success_rate']:.1f}% | {delta} | "
                     f"{100 * s['goal_condition_success']:.1f}% | {s['mean_steps']:.1f} | {s['mean_questions']:.2f} | "
                     f"{s['episodes_per_hour']:.0f} |")
    return lines
