"""``fixed-templates``: FILM-style fixed subgoal sequences per task type (the ablation of
the PDDL planner: no search over actions, no recovery by replanning).

Each ALFRED task type (and the simple TEACh tasks) has one template of (action, role,
receptacle role) steps; roles are the task's object, parent, toggle and movable receptacle
(plus tools: the sink basin and its faucet, the microwave, the fridge, a knife, the coffee
machine). Steps are bound at each ``plan`` call to the nearest believed instance of their
type (the slice of a sliced object once it exists); a role without an instance becomes a
search. A step that succeeded is not done again; a failed one is retried (``replan: true``
binds it afresh, ``false`` keeps its instance) until ``max_failures``. Without a template
for the task (TEACh's subgoal Commander says steps, not the task), each step said is
expanded by its action's fixed sequence (``STEP_TEMPLATES``), in the order said.
"""

from __future__ import annotations

from contracts.belief import Belief
from contracts.language import Subgoal
from contracts.planning import Goal, Plan, PlannedSubgoal, PlannerState, PlannerStatus, SkillFailure
from contracts.registry import planner
from planner import knowledge
from planner.goals import alfred_kind
from planner.pddl_planner import SubgoalPlanner

SLICE = [("PickupObject", "knife", None), ("SliceObject", "whole", None), ("PutObject", "knife", "counter")]
PLACE = [("PickupObject", "object", None), ("PutObject", "object", "parent")]
TEMPLATES: dict[str, list[tuple[str, str, str | None]]] = {
    "pick_and_place_simple": PLACE,
    "pick_two_obj_and_place": PLACE + [("PickupObject", "object2", None), ("PutObject", "object2", "parent")],
    "look_at_obj_in_light": [("PickupObject", "object", None), ("ToggleObjectOn", "toggle", None)],
    "pick_clean_then_place_in_recep": [("PickupObject", "object", None), ("PutObject", "object", "basin"),
                                       ("ToggleObjectOn", "faucet", None), ("ToggleObjectOff", "faucet", None)] + PLACE,
    "pick_heat_then_place_in_recep": [("PickupObject", "object", None), ("OpenObject", "microwave", None),
                                      ("PutObject", "object", "microwave"), ("CloseObject", "microwave", None),
                                      ("ToggleObjectOn", "microwave", None), ("ToggleObjectOff", "microwave", None),
                                      ("OpenObject", "microwave", None)] + PLACE,
    "pick_cool_then_place_in_recep": [("PickupObject", "object", None), ("OpenObject", "fridge", None),
                                      ("PutObject", "object", "fridge"), ("CloseObject", "fridge", None),
                                      ("OpenObject", "fridge", None)] + PLACE,
    "pick_and_place_with_movable_recep": [("PickupObject", "object", None), ("PutObject", "object", "mrecep"),
                                          ("PickupObject", "mrecep", None), ("PutObject", "mrecep", "parent")],
    "Coffee": [("PickupObject", "mug", None), ("PutObject", "mug", "basin"), ("ToggleObjectOn", "faucet", None),
               ("ToggleObjectOff", "faucet", None), ("PickupObject", "mug", None),
               ("PutObject", "mug", "coffeemachine"), ("ToggleObjectOn", "coffeemachine", None)],
    "Water Plant": [("PickupObject", "carrier", None), ("PutObject", "carrier", "basin"),
                    ("ToggleObjectOn", "faucet", None), ("ToggleObjectOff", "faucet", None),
                    ("PickupObject", "carrier", None), ("PourObject", "carrier", "plant")],
}
# a step said in dialogue (TEACh's subgoal Commander): one fixed sequence per action, on
# the step's object ("it") and receptacle ("place")
STEP_TEMPLATES: dict[str, list[tuple[str, str, str | None]]] = {
    "PickupObject": [("PickupObject", "it", None)],
    "PutObject": [("PickupObject", "it", None), ("PutObject", "it", "place")],
    "CleanObject": [("PickupObject", "it", None), ("PutObject", "it", "basin"), ("ToggleObjectOn", "faucet", None),
                    ("ToggleObjectOff", "faucet", None)],
    "FillObject": [("PickupObject", "it", None), ("PutObject", "it", "basin"), ("ToggleObjectOn", "faucet", None),
                   ("ToggleObjectOff", "faucet", None)],
    "HeatObject": TEMPLATES["pick_heat_then_place_in_recep"][:-2],
    "CoolObject": TEMPLATES["pick_cool_then_place_in_recep"][:-2],
    "SliceObject": [("PickupObject", "knife", None), ("SliceObject", "it", None)],
    "PourObject": [("PickupObject", "it", None), ("PourObject", "it", "place")],
    "OpenObject": [("OpenObject", "it", None)], "CloseObject": [("CloseObject", "it", None)],
    "ToggleObjectOn": [("ToggleObjectOn", "it", None)], "ToggleObjectOff": [("ToggleObjectOff", "it", None)],
}
TOOLS = {"knife": "Knife", "basin": "SinkBasin", "faucet": "Faucet", "microwave": "Microwave", "fridge": "Fridge",
         "counter": "CounterTop", "mug": "Mug", "coffeemachine": "CoffeeMachine", "carrier": "Cup",
         "plant": "HousePlant"}


@planner.register("fixed-templates")
class TemplatePlanner(SubgoalPlanner):
    def reset(self, context) -> None:
        super().reset(context)
        self.done = 0
        self.bound: dict[str, str] = {}  # role -> memory key (kept with replan: false)

    def plan(self, goal: Goal, belief: Belief, failure: SkillFailure | None = None) -> Plan:
        issued = self.issued if goal == self.goal else None  # a step interrupted by new words is not done
        if self.goal is None or goal.task != self.goal.task or goal.subgoals[:len(self.goal.subgoals)] != self.goal.subgoals:
            self.done, self.bound = 0, {}  # a new task (steps said after it only extend the template)
        self._settle(goal, failure)
        if (given_up := self.gave_up()) is not None:
            return given_up
        if issued is not None and (failure is None or failure.step != issued):
            self.done += 1
        elif failure is not None and self.params.replan:
            self.bound = {}
        task = goal.task
        name = (task.task_type or task.teach_task) if task is not None else ""
        template, roles = TEMPLATES.get(name), None
        if template is None and goal.subgoals:  # no template for the task: follow the steps said
            template, roles = self._steps(goal)
        if template is None:
            return Plan((), PlannerStatus(PlannerState.FAILING, reason=f"no fixed template for task {name or '(none)'!r}"))
        if task is not None and task.object_sliced and roles is None:
            template = SLICE + template
        if self.done >= len(template):
            return Plan.idle("the template is done")
        roles = roles or self._roles(goal)
        steps = [self._bind(action, role, recep, roles, belief) for action, role, recep in template[self.done:]]
        self.steps = steps
        return Plan(tuple(steps), self._status(steps, failure))

    @staticmethod
    def _steps(goal: Goal) -> tuple[list[tuple[str, str, str | None]], dict[str, str]]:
        """The steps said so far, each expanded by its action's template (roles per step)."""
        template, roles = [], dict(TOOLS)
        for n, sg in enumerate(goal.subgoals):
            if sg.action not in STEP_TEMPLATES or not sg.object or (n and sg == goal.subgoals[n - 1]):
                continue  # (a step said again is not a second step)
            it, place = f"{n}:it", f"{n}:place"
            roles[it], roles[place] = sg.object, sg.receptacle or ""
            for action, role, recep in STEP_TEMPLATES[sg.action]:
                template.append((action, it if role in ("it", "object") else role, place if recep == "place" else recep))
        return template, {k: v for k, v in roles.items() if v}

    def _roles(self, goal: Goal) -> dict[str, str]:
        task = goal.task
        obj = task.object_target
        roles = dict(TOOLS, whole=obj, object=obj + ("Sliced" if task.object_sliced else ""),
                     object2=obj + ("Sliced" if task.object_sliced else ""), parent=task.parent_target,
                     toggle=task.toggle_target, mrecep=task.mrecep_target)
        return {k: v for k, v in roles.items() if v}

    def _bind(self, action: str, role: str, recep: str | None, roles: dict[str, str], belief: Belief) -> PlannedSubgoal:
        kind = roles.get(role, role)
        key = self._key(role, kind, belief)
        recep_key = self._key(recep, roles.get(recep, recep), belief) if recep else None
        subgoal = Subgoal(action, kind, roles.get(recep, recep) if recep else None)
        if key is None:
            return PlannedSubgoal(Subgoal("GotoLocation", knowledge.representative(kind)))
        if recep and recep_key is None:
            return PlannedSubgoal(Subgoal("GotoLocation", knowledge.representative(roles.get(recep, recep))))
        return PlannedSubgoal(subgoal, key, recep_key)

    def _key(self, role: str, kind: str, belief: Belief) -> str | None:
        memory = belief.memory
        if role in self.bound and self.bound[role] in memory.instances:
            return self.bound[role]
        if memory.held is not None and alfred_kind(kind)(memory.instances[memory.held].object_type):
            if role not in ("parent", "counter", "basin", "microwave", "fridge"):
                self.bound[role] = memory.held
                return memory.held
        # roles never share an object, but the steps said (roles "n:it", "n:place") may: it is the same mug
        taken = {k for r, k in self.bound.items() if r != role and ":" not in r} if ":" not in role else set()
        px, pz = belief.pose.x, belief.pose.z
        found = [i for i in memory.instances.values() if alfred_kind(kind)(i.object_type) and i.key not in taken]
        if not found:
            return None
        best = min(found, key=lambda i: ((i.position[0] - px) ** 2 + (i.position[2] - pz) ** 2, i.key))
        self.bound[role] = best.key
        return best.key
