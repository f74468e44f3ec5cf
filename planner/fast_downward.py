"""Solving PDDL with Fast Downward (the ``up-fast-downward`` wheel's compiled ``downward``
search and the ``fast-downward.translate`` package).

The translator runs in this process (parsing, normalising, grounding to SAS+: most of the
time on small household problems, and starting a Python interpreter per plan would cost
more than the search); the SAS+ task goes to the ``downward`` binary on stdin and the plan
comes back on stdout. Search (``SEARCHES``, chosen by the ``pddl`` planner's ``search``
parameter): greedy best-first with the FF heuristic and preferred operators, lazy (the
default) or eager (shorter plans; lazy greedy again where eager finds nothing within
``PHASE_TIMEOUT``); both support the domain's conditional effects and derived predicates.

What can be reused is: the domain is parsed once (a pickled copy of the parsed domain per
problem, since normalising changes it in place); the translator's domain-only work (the
Datalog program of its reachability analysis, the invariants) is done once
(``planner.translator_cache``); and solutions are remembered by problem text
(``CACHE_SIZE`` of them): translation and search are deterministic, so a replan of a
problem met before (a failed step that changed nothing the planner sees, a later episode
in the same state) gets the same plan without solving it again; a search that ran out of
time is not run again on the same problem either (it fails at once). The cyclic garbage
collector pauses while the translator runs.
"""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import io
import math
import os
import pickle
import resource
import signal
import subprocess
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from contracts.errors import NesyError
from planner.translator_cache import reusing_domain_work

LAZY_GREEDY = ["--evaluator", "h=ff()", "--search", "lazy_greedy([h], preferred=[h])"]
EAGER_GREEDY = ["--evaluator", "h=ff()", "--search", "eager_greedy([h], preferred=[h])"]
SearchName = Literal["lazy-greedy", "eager-greedy"]
SEARCHES: dict[str, tuple[list[str], ...]] = {  # name -> phases: the downward binary's arguments
    "lazy-greedy": (LAZY_GREEDY,),
    # shorter plans, but stuck for good on a few problems that lazy greedy solves at once
    "eager-greedy": (EAGER_GREEDY, LAZY_GREEDY),
}
DEFAULT_SEARCH: SearchName = "lazy-greedy"
TIMEOUT = 20.0  # seconds for one search
PHASE_TIMEOUT = 2.0  # seconds for each phase of a search but the last
OUT_OF_TIME = 23  # ``downward``'s exit code when its time ran out (SIGXCPU caught)
CACHE_SIZE = 512  # solutions remembered by problem text


@dataclass(frozen=True)
class Solution:
    """A plan (ground actions as tuples of lower-case names) or why there is none."""

    actions: tuple[tuple[str, ...], ...] | None
    reason: str = ""
    translate_ms: float = 0.0
    search_ms: float = 0.0

    @property
    def solved(self) -> bool:
        return self.actions is not None

    @property
    def total_ms(self) -> float:
        return self.translate_ms + self.search_ms


@lru_cache(maxsize=1)
def downward_binary() -> Path:
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        raise NesyError("the PDDL planner needs the up-fast-downward package: pip install up-fast-downward")
    binary = Path(list(spec.submodule_search_locations)[0]) / "downward" / "builds" / "release" / "bin" / "downward"
    if not binary.exists():
        raise NesyError(f"up-fast-downward is installed but has no search binary at {binary}")
    return binary


@lru_cache(maxsize=1)
def _translator():
    try:
        from fast_downward.translate import main as translate_main
        from fast_downward.translate import normalize, options
        from fast_downward.translate.pddl_parser import lisp_parser, parsing_functions
    except ImportError as error:  # pragma: no cover - a broken install
        raise NesyError("the PDDL planner needs fast-downward.translate (installed with up-fast-downward)") from error
    options.set_options(["domain.pddl", "problem.pddl"])
    return lisp_parser, parsing_functions, normalize, translate_main


@lru_cache(maxsize=4)
def _parsed_domain(domain: str) -> bytes:
    """The parsed domain (``parse_domain_pddl``'s parts), pickled."""
    lisp_parser, parsing_functions, _, _ = _translator()
    with contextlib.redirect_stdout(io.StringIO()):
        parts = list(parsing_functions.parse_domain_pddl(parsing_functions.Context(),
                                                         lisp_parser.parse_nested_list(domain.splitlines())))
    return pickle.dumps(parts)


def parse_task(domain: str, problem: str):
    """The translator's task of a domain and problem, as ``parse_task`` makes it, from a
    fresh copy of the domain parsed once."""
    from fast_downward.translate import pddl

    lisp_parser, parsing_functions, _, _ = _translator()
    (domain_name, requirements, types, type_dict, constants, predicates, predicate_dict, functions,
     actions, axioms) = pickle.loads(_parsed_domain(domain))
    context = parsing_functions.Context()
    problem_pddl = lisp_parser.parse_nested_list(problem.splitlines())
    if not isinstance(problem_pddl, list):
        context.error("Invalid definition of a PDDL problem.")
    name, problem_domain, problem_requirements, objects, init, goal, use_metric = parsing_functions.parse_problem_pddl(
        context, problem_pddl, type_dict, predicate_dict, {c.name for c in constants})
    if problem_domain != domain_name:
        context.error(f"The problem's domain ({problem_domain}) is not {domain_name}.")
    requirements = pddl.Requirements(sorted(set(requirements.requirements + problem_requirements.requirements)))
    objects = constants + objects
    parsing_functions.check_for_duplicates(context, [o.name for o in objects], "object")
    init += [pddl.Atom("=", (obj.name, obj.name)) for obj in objects]
    return pddl.Task(domain_name, name, requirements, types, objects, predicates, functions, init, goal,
                     actions, axioms, use_metric)


def translate(domain: str, problem: str) -> str | None:
    """The SAS+ task text of a PDDL domain and problem (None: proved unsolvable while
    grounding)."""
    _, _, normalize, translate_main = _translator()
    with contextlib.redirect_stdout(io.StringIO()), _without_cycle_collection():
        task = parse_task(domain, problem)
        normalize.normalize(task)
        with reusing_domain_work(domain, task):
            sas = translate_main.pddl_to_sas(task)
        out = io.StringIO()
        sas.output(out)
    text = out.getvalue()
    unsolvable = "\nbegin_goal\n1\n" in text and len(sas.operators) == 0 and not _goal_true(sas)
    return None if unsolvable else text


@contextlib.contextmanager
def _without_cycle_collection():
    """The translator allocates ~10^5 short-lived objects, which in a process holding a
    large heap (an evaluation worker) triggers full cyclic collections: a third of the
    translation time there. They are freed by reference counting; cycles wait for the
    next collection after the block."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _goal_true(sas) -> bool:
    return all(sas.init.values[var] == val for var, val in sas.goal.pairs)


_SOLVED: OrderedDict[tuple[str, str, str], Solution] = OrderedDict()


def search_phases(search: str) -> tuple[list[str], ...]:
    """The phases of a search named in ``SEARCHES``: ``downward``'s arguments for each, tried
    in order until one finds a plan (each but the last for at most ``PHASE_TIMEOUT``)."""
    if search not in SEARCHES:
        raise NesyError(f"unknown PDDL search {search!r}: choose one of {', '.join(SEARCHES)}")
    return SEARCHES[search]


def solve(domain: str, problem: str, timeout: float = TIMEOUT, search: str = DEFAULT_SEARCH) -> Solution:
    """The plan's actions in order: remembered if this problem was solved before, else
    translated in-process and searched with ``downward``."""
    phases = search_phases(search)
    key = (domain, problem, search)
    if key in _SOLVED:
        _SOLVED.move_to_end(key)
        return _SOLVED[key]
    solution = _solve(domain, problem, timeout, phases)
    _SOLVED[key] = solution  # a search that ran out of time would run out of time again
    while len(_SOLVED) > CACHE_SIZE:
        _SOLVED.popitem(last=False)
    return solution


def _solve(domain: str, problem: str, timeout: float, phases: tuple[list[str], ...]) -> Solution:
    start = time.perf_counter()
    try:
        sas = translate(domain, problem)
    except (SystemExit, Exception) as error:  # the translator exits on malformed input
        raise NesyError(f"the PDDL translator rejected the problem: {error}") from error
    translated = time.perf_counter()
    translate_ms = (translated - start) * 1000
    if sas is None:
        return Solution(None, "no plan exists (unsolvable while grounding)", translate_ms)
    for i, arguments in enumerate(phases):
        last = i == len(phases) - 1
        left = timeout - (time.perf_counter() - translated)
        actions, reason = _search(sas, arguments, left if last else min(PHASE_TIMEOUT, left))
        if actions is not None or last or reason.startswith("no plan exists"):
            break
    return Solution(actions, reason, translate_ms, (time.perf_counter() - translated) * 1000)


def _cpu_limit(timeout: float) -> Callable[[], None]:
    """A ``preexec_fn`` capping the search's CPU time a little above its wall-clock timeout,
    so that a search outlives no killed evaluation: the timeout is the parent's to enforce,
    and one left behind by a stopped worker searched on for 18 minutes, 2.3 GB, beside the
    next run (stop 96). A one-threaded search never reaches the cap before the timeout."""
    seconds = math.ceil(timeout) + 2

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))

    return limit


def _search(sas: str, arguments: list[str], timeout: float) -> tuple[tuple[tuple[str, ...], ...] | None, str]:
    """One run of ``downward`` on a SAS+ task: the plan, or None and why not."""
    with tempfile.TemporaryDirectory(prefix="nesy-fd-") as tmp:
        plan_file = Path(tmp) / "plan"
        try:
            run = subprocess.run([str(downward_binary()), *arguments, "--internal-plan-file", str(plan_file)],
                                 input=sas, capture_output=True, text=True, timeout=max(timeout, 0.1), cwd=tmp,
                                 env={**os.environ, "OMP_NUM_THREADS": "1"}, preexec_fn=_cpu_limit(timeout))
        except subprocess.TimeoutExpired:
            return None, f"no plan found within {timeout:.3g} s"
        if run.returncode in (OUT_OF_TIME, -signal.SIGXCPU):  # the CPU cap (``_cpu_limit``) before the timeout
            return None, f"no plan found within {timeout:.3g} s (CPU time)"
        if not plan_file.exists():
            if "Search stopped without finding a solution" in run.stdout or run.returncode in (11, 12):
                # 11: the search space was exhausted (unsolvable), 12: stopped without a plan
                return None, "no plan exists (the search space was exhausted)"
            tail = (run.stderr or run.stdout).strip().splitlines()[-1:] or ["no output"]
            raise NesyError(f"Fast Downward failed (exit {run.returncode}): {tail[0]}")
        return tuple(tuple(line.strip()[1:-1].split()) for line in plan_file.read_text().splitlines()
                     if line.startswith("(")), ""
