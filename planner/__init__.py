"""Planning: the symbolic belief state, subgoal planning and the skills that execute subgoals.

Modules register in the ``planner`` registry (``contracts.registry.planner``).
"""
