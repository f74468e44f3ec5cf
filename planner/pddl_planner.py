"""``pddl``: subgoals from a PDDL plan (Fast Downward) over the symbolic state, executed by
skills with recovery, replanned when an action fails or the Belief changes.

Each ``plan`` call builds the symbolic state (Belief + the Follower's history), binds the
goal (``planner.goals``), writes the problem (``planner.problem``) and solves it with the
domain (``planner.domain``). The plan's interactions become subgoals bound to memory keys
(walking is the skills' job, so ``goto`` steps vanish, except a last one); a ``search``
becomes a search subgoal (status SEARCHING: the dialogue manager may ask where it is). A put
that only empties the hand goes to the surface on the way (``planner.parking``); a plan
that would put a knife down and fetch one again to slice more is solved again keeping the
knife in hand until those are sliced (``planner.knife_kept``). The
plan is kept while its steps succeed; it is solved again (``replan: true``) when a skill
fails, when a step's object is a placeholder that now exists (pieces after slicing, a
found object) or is no longer in memory, and when the plan runs out (an empty plan means
the goal holds). With ``replan: false`` the first plan is followed step by step (a failed
step is retried) and solved again only when it runs out or must bind a placeholder.
Dialogue steps are followed one at a time: the next once a step holds or its plan was
carried out (bound afresh, "Microwave the potato slice." would take slice after slice).
An impossible goal ends as status FAILING with the reason and the missing object type,
but a walk step ("Go to the desk.") whose landmark was searched for everywhere in vain is
passed over when more steps follow it (ALFRED-L's NAV-ONLY: the last walk says where to end).
"""

from __future__ import annotations

import resource
import time
from collections.abc import Sequence
from dataclasses import dataclass

from contracts.belief import Belief
from contracts.errors import NesyError
from contracts.language import Subgoal
from contracts.navigation import Navigator
from contracts.observation import ModuleContext
from contracts.planning import (
    Goal,
    Plan,
    PlannedSubgoal,
    Planner,
    PlannerState,
    PlannerStatus,
    Skill,
    SkillFailure,
)
from contracts.registry import planner
from planner import knowledge
from planner.binding import GoalError
from planner.domain import DOMAIN, SUBGOAL_OF
from planner.fast_downward import DEFAULT_SEARCH, SearchName, Solution, solve
from planner.goals import compile_goal, has_task
from planner.history import ACTION_OPS, History
from planner.knife_kept import marked, sliced_after_knife_put
from planner.parking import repark
from planner.problem import Problem, build_problem
from planner.skills import ACTIONS, InteractSkill
from planner.symbolic import SymbolicState, shut_in, symbolic_state
from planner.walking_skills import GotoSkill, SearchSkill

REACHED_SHUT = ("GotoLocation", "OpenObject", "CloseObject")  # steps whose object may lie in a closed container


@dataclass
class SolveRecord:
    """One call of the PDDL planner (for ``nesy bench planner``)."""

    ms: float
    objects: int
    steps: int
    solved: bool
    problem: str = ""  # the PDDL problem text (for comparing planners on the same problems)
    cpu_ms: float = 0.0  # CPU time of this process and the search subprocess (robust to a busy machine)


class SubgoalPlanner(Planner):
    """Shared bookkeeping of the planners that hand out steps to skills: which step was
    handed out, whether it succeeded, the skills, the history."""

    @dataclass
    class Params:
        replan: bool = True  # solve again on failures and Belief changes (false: follow the first plan)
        max_failures: int = 4  # consecutive failures of one subgoal before the planner reports FAILING
        give_up_after: int = 40  # failed subgoals in an episode after which the planner gives up (FAILING)

    def __init__(self, params: Params | None = None) -> None:
        self.params = params or self.Params()
        if self.params.max_failures < 1 or self.params.give_up_after < 1:
            raise ValueError(f"max_failures and give_up_after must be at least 1, got {self.params}")
        self.records: list[SolveRecord] = []

    def reset(self, context: ModuleContext) -> None:
        super().reset(context)
        self.history = History()
        self.steps: list[PlannedSubgoal] = []
        self.issued: PlannedSubgoal | None = None
        self.goal: Goal | None = None
        self.subgoal_index = 0
        self.task_steps: int | None = None  # the goal's subgoals when its task was first planned
        self.failed = 0  # failed subgoals this episode
        self.solving: int | None = None  # the dialogue step the current plan is for (None: the task)
        self.carried_out: int | None = None  # the dialogue step whose plan ran out, every step done
        self.more_types: set[str] = set()  # types the last goal searches for one more of (an all-X task)

    def _exploring(self, steps: list[PlannedSubgoal] | None) -> bool:
        """Does the plan begin by searching only for one more X of an all-X task?"""
        return bool(steps) and steps[0].search and steps[0].subgoal.object in self.more_types

    def gave_up(self) -> Plan | None:
        """FAILING for good once ``give_up_after`` subgoals failed (no more solving)."""
        if self.failed < self.params.give_up_after:
            return None
        return Plan((), PlannerStatus(PlannerState.FAILING, reason=f"gave up after {self.failed} failed subgoals",
                                      failures=self.failed))

    def _settle(self, goal: Goal, failure: SkillFailure | None) -> bool:
        """Account for the step handed out last; True if the remaining plan still stands."""
        if goal != self.goal:
            if self.goal is not None:  # what the Commander said since: a put said again may be a reminder
                self.history.remind(goal.subgoals, len(self.goal.subgoals), self.subgoal_index, self.carried_out)
            self.goal, self.steps, self.issued = goal, [], None
            self.subgoal_index = min(self.subgoal_index, len(goal.subgoals))
            return False
        issued, self.issued = self.issued, None
        if issued is None:
            return bool(self.steps)
        if failure is not None and failure.step == issued:
            self.failed += 1
            op = ACTION_OPS.get(ACTIONS.get(issued.subgoal.action, ""), "")
            target = issued.receptacle_key if op in ("put", "pour") else issued.object_key
            self.history.failed(op, target, failure.reason)
            return False
        if self.steps and self.steps[0] == issued:
            self.steps.pop(0)
            if not self.steps and self.solving is not None and not issued.search:
                self.carried_out = self.solving  # (a search that found a walk's landmark has not walked there)
        if issued.subgoal.action == "GotoLocation":
            self.history.at = issued.object_key  # "at" it: a walk step holds, the next is followed
        return True

    def told(self, object_types: frozenset[str], doubted: frozenset[str] = frozenset()) -> None:
        """Searches for these types start over and their instances left out as missing are
        tried again (the Commander says where they are); for the ``doubted`` types, what the
        Follower's own actions made of them (filled, cleaned, cooked, ...) is forgotten, so
        a step the Commander repeats is done again."""
        if object_types:
            self.failed = 0
        self.history.reconsider(object_types)
        self.history.reconsider(doubted, forget_flags=True)

    def skill(self, step: PlannedSubgoal, belief: Belief, navigator: Navigator) -> Skill:
        self.issued = step
        self.history.at = None  # whatever this skill does, it may move the Follower
        if step.search:
            return SearchSkill(step.subgoal.object or "", navigator, self.context.camera, self.history)
        if step.subgoal.action == "GotoLocation":
            return GotoSkill(step.object_key or "", navigator, self._end_view(), self.context.camera.camera_height)
        if step.subgoal.action not in ACTIONS:
            raise NesyError(f"no skill for subgoal action {step.subgoal.action!r}")
        return InteractSkill(step, navigator, self.context.camera, self.history)

    def _end_view(self) -> str | None:
        """The lamp to look at where the last walk after an ALFRED look-at task ends: the task
        is judged there by a lit lamp in sight ("Walk back to the side table." after "Turn on
        the lamp."; on 20 dev REV-1 look-at trials 5 failed on that alone)."""
        goal = self.goal
        if not (self.history.ending and goal is not None and goal.task is not None
                and goal.task.task_type == "look_at_obj_in_light" and self.subgoal_index == len(goal.subgoals) - 1):
            return None
        return next((target for op, _, target in reversed(self.history.actions) if op == "toggle_on"), None)

    def _status(self, steps: list[PlannedSubgoal], failure: SkillFailure | None) -> PlannerStatus:
        if failure is not None and failure.failures >= self.params.max_failures:
            return PlannerStatus(PlannerState.FAILING, failure.step.subgoal.object, reason=failure.reason,
                                 failures=failure.failures)
        first = steps[0]
        if first.search:
            return PlannerStatus(PlannerState.SEARCHING, first.subgoal.object, exploring=self._exploring(steps))
        return PlannerStatus(PlannerState.ACTING, first.subgoal.object,
                             failures=failure.failures if failure is not None else 0)


@planner.register("pddl")
class PddlPlanner(SubgoalPlanner):
    @dataclass
    class Params(SubgoalPlanner.Params):
        search: SearchName = DEFAULT_SEARCH  # Fast Downward's search (planner.fast_downward.SEARCHES)

    def plan(self, goal: Goal, belief: Belief, failure: SkillFailure | None = None) -> Plan:
        stands = self._settle(goal, failure)
        self.history.seen_elsewhere(belief.memory.instances)
        if (given_up := self.gave_up()) is not None:
            return given_up
        if failure is not None and not self.params.replan and self.issued is None and self.steps \
                and failure.step == self.steps[0] and failure.failures < self.params.max_failures:
            return Plan(tuple(self.steps), self._status(self.steps, failure))  # retry the same step
        if stands and self.steps and self._still_valid(belief) and (self.params.replan is False or failure is None):
            return Plan(tuple(self.steps), self._status(self.steps, failure))
        try:
            steps, reason = self._solve_or_release(goal, belief)
        except GoalError as error:
            return Plan((), PlannerStatus(PlannerState.FAILING, error.missing, reason=str(error),
                                          failures=failure.failures if failure else 0))
        if steps is None:
            return Plan((), PlannerStatus(PlannerState.FAILING, None, reason=reason))
        self.steps = steps
        if not steps:
            return Plan.idle("the goal holds")
        return Plan(tuple(steps), self._status(steps, failure))

    def _solve_or_release(self, goal: Goal, belief: Belief) -> tuple[list[PlannedSubgoal] | None, str]:
        """``_solve_next``, once more with the instances kept out though retold tried again
        when it finds no plan without them (``History.release_kept_out``)."""
        where = self.subgoal_index, self.history.ending
        try:
            steps, reason = self._solve_next(goal, belief)
        except GoalError:
            if not self.history.release_kept_out():
                raise
        else:
            if steps is not None or not self.history.release_kept_out():
                return steps, reason
        self.subgoal_index, self.history.ending = where
        return self._solve_next(goal, belief)

    def _solve_next(self, goal: Goal, belief: Belief) -> tuple[list[PlannedSubgoal] | None, str]:
        """The task's plan; once the task holds as far as the Belief tells (or cannot be
        planned) while the Commander has given steps since stating it, the plan of its next
        unfinished step. Steps that came with the task (ALFRED's step instructions) only
        describe it, but for the walks after its last manipulation (``described_steps``):
        once the task held and the Follower set off on them, the task is not planned again
        (ALFRED's look-at task holds at the lamp; "Walk back to the desk." then means leaving it)."""
        use_task = has_task(goal)
        if use_task and self.task_steps is None:
            self.task_steps = described_steps(goal.subgoals)
        if self.history.ending and all(sg.action == "GotoLocation" for sg in goal.subgoals[self.task_steps or 0:]):
            use_task = False
        while True:
            later = use_task and max(self.subgoal_index, self.task_steps or 0) < len(goal.subgoals)
            if not use_task and self.carried_out == self.subgoal_index:
                # a step whose plan was carried out is done: bound afresh, "Microwave the potato
                # slice." would take the next raw slice, and the next, ...
                if self.subgoal_index < len(goal.subgoals) - 1:
                    self.subgoal_index += 1
                    continue
                return [], ""
            state = symbolic_state(belief, self.history)
            try:
                steps, reason = self._solve(goal, state, use_task)
            except GoalError:
                if not use_task and self._passable(goal):
                    self.subgoal_index += 1  # a walk to nothing found: the walks after it still say where to go
                    continue
                if not later:
                    raise
                steps, reason = None, ""  # (the Commander's steps next)
            if steps is None and not later:
                return None, reason
            if later and self._exploring(steps):
                steps = []  # the task holds but for one more X it might find: the Commander's steps first
            if steps:
                self.solving = None if use_task else self.subgoal_index
                return steps, reason
            if later:  # the Belief may be wrong (a dirty mug seen as clean): follow the Commander
                self.history.ending = steps == []  # it holds (not: it cannot be planned now)
                use_task, self.subgoal_index = False, max(self.subgoal_index, self.task_steps or 0)
            elif not use_task and self.subgoal_index < len(goal.subgoals) - 1:
                self.subgoal_index += 1  # this dialogue step is done: on to the next one
            else:
                return steps, reason

    def _passable(self, goal: Goal) -> bool:
        """Is the current dialogue step a walk with more steps after it?"""
        index = self.subgoal_index
        return index < len(goal.subgoals) - 1 and goal.subgoals[index].action == "GotoLocation"

    def _still_valid(self, belief: Belief) -> bool:
        """The next step's objects exist in memory (not placeholders, not vanished), and the
        thing it acts on (or the plate it puts onto) is not (now) believed shut in a closed
        container: a hint followed to the next cabinet moved the pot the plan was about to
        pick up from the cabinet it had opened, and the pickup looked for it at the closed
        one (TATC valid_unseen 0097)."""
        step = self.steps[0]
        if step.search:
            return not any(i.object_type == step.subgoal.object and not self.history.gone(i.key)
                           for i in belief.memory.instances.values())
        keys = [k for k in (step.object_key, step.receptacle_key) if k is not None]
        if not all(k in belief.memory.instances and not self.history.gone(k) for k in keys):
            return False
        if step.subgoal.action in REACHED_SHUT:
            return True
        # what it takes, and a plate it puts onto (N Slices 0148: the hint moved the plate on into
        # a closed upper cabinet, and the lettuce was carried there without opening it); only
        # pickupable things (a microwave the map believes in a cabinet above it is not shut in:
        # ALFRED heat 050921)
        return not any(key != belief.memory.held and shut_in(belief, key)
                       and knowledge.has(belief.memory.instances[key].object_type, "pickupable") for key in keys)

    def problem(self, goal: Goal, state: SymbolicState, use_task: bool = True) -> Problem:
        compiled = compile_goal(goal, state, self.history, self.subgoal_index, use_task)
        self.more_types = {state.types[k] for k in compiled.more}
        return build_problem(state, compiled, self.history, dict(getattr(goal, "preferred", ())))

    def _solve(self, goal: Goal, state: SymbolicState, use_task: bool = True) -> tuple[list[PlannedSubgoal] | None, str]:
        start, cpu = time.perf_counter(), _cpu_seconds()
        problem = self.problem(goal, state, use_task)
        if problem.trivial:
            return [], ""
        solution = self._search(problem, start, cpu)
        if solution.solved and (whole := sliced_after_knife_put(solution.actions, problem, state)):
            kept = self._search(marked(problem, whole), time.perf_counter(), _cpu_seconds())
            solution = kept if kept.solved else solution  # (no plan holds the knife throughout)
        if not solution.solved:
            return None, f"no plan reaches the goal: {solution.reason}"
        return repark(steps_of(solution, problem, state), state, problem.goal_keys, self.history.full), ""

    def _search(self, problem: Problem, start: float, cpu: float) -> Solution:
        solution = solve(DOMAIN, problem.text, search=self.params.search)
        self.records.append(SolveRecord((time.perf_counter() - start) * 1000, problem.objects,
                                        len(solution.actions or ()), solution.solved, problem.text,
                                        (_cpu_seconds() - cpu) * 1000))
        return solution


def described_steps(subgoals: Sequence[Subgoal]) -> int:
    """How many of the subgoals given with a task only describe it: those up to its last
    manipulation. Walks after it ("Walk back to the microwave.", ALFRED-L's REV steps) say
    where to end: followed once the task holds."""
    return max((i + 1 for i, sg in enumerate(subgoals) if sg.action != "GotoLocation"), default=0)


def _cpu_seconds() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def steps_of(solution: Solution, problem: Problem, state: SymbolicState) -> list[PlannedSubgoal]:
    """Plan actions -> subgoals on memory keys (walks dropped but for a final one)."""
    steps = []
    actions = solution.actions or ()
    for n, (name, *args) in enumerate(actions):
        keys = [problem.keys[a] for a in args]
        if name == "goto":
            if n == len(actions) - 1:
                steps.append(PlannedSubgoal(Subgoal("GotoLocation", state.types[keys[0]]), keys[0]))
            continue
        action, obj, rec = SUBGOAL_OF[name]
        if name == "search":
            steps.append(PlannedSubgoal(Subgoal(action, state.types[keys[0]])))
            continue
        receptacle = keys[rec] if rec is not None else None
        steps.append(PlannedSubgoal(Subgoal(action, state.types[keys[obj]], state.types[receptacle] if receptacle else None),
                                    keys[obj], receptacle))
    return steps
