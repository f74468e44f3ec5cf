"""Imports the built-in Commanders so that they register."""

from agent.commanders import teach_lowlevel  # noqa: F401
