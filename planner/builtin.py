"""Imports the built-in planners so that they register."""

from planner import oracle_planner, pddl_planner, templates  # noqa: F401
