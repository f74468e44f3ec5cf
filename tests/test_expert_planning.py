"""The oracle step planner (``simulator.expert.planning.KeyPlanner``)."""

from __future__ import annotations

from sim_helpers import kitchen

from simulator.expert.actor import SkillFailed
from simulator.expert.planning import KeyPlanner
from simulator.expert.solver import TaskExpert
from simulator.expert.solver_keys import ProblemKey
from simulator.objects import SimObject


def test_the_plan_works_on_another_instance_when_the_named_one_cannot_be_reached(monkeypatch):
    sim = kitchen()
    named = next(oid for oid in sim.world.objects if oid.startswith("Apple|"))
    sim.world.add(SimObject("Apple|+09.00|+09.00|+09.00", "Apple", (-1.0, 1.0, -1.3), (0.1, 0.1, 0.1)))

    class Goal:  # "some apple cooked"; Progress Check names the one no pose sees
        def keys(self, world):
            return [ProblemKey(named, "isCooked", True)]

        def done(self, world):
            return False

        def satisfied(self, world):
            return sum(o.is_cooked for o in world.objects.values() if o.object_type == "Apple")

    def fix(expert, key, cooks=True):
        if key.object_id == named:
            raise SkillFailed(f"no path to a pose that sees {named}")
        expert.actor.actions.append(("Pickup", {"objectId": key.object_id}))
        expert.actor.states.append(expert.sim.state_hash())
        expert.world.objects[key.object_id].is_cooked = cooks

    monkeypatch.setattr(TaskExpert, "fix", fix)
    planner = KeyPlanner(sim, Goal())
    assert planner.next_chunk() == [("Pickup", {"objectId": "Apple|+09.00|+09.00|+09.00"})]
    assert planner.last_failure is None

    monkeypatch.setattr(TaskExpert, "fix", lambda expert, key: fix(expert, key, cooks=False))
    planner = KeyPlanner(sim, Goal())  # working on the other one would not help: no plan
    assert planner.next_chunk() == [] and planner.last_failure == f"no path to a pose that sees {named}"
