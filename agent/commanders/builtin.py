"""Imports the built-in Commanders so that they register."""

from agent.commanders import teach_goal, teach_lowlevel, teach_subgoal  # noqa: F401
