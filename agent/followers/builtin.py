"""Imports the built-in Followers so that they register."""

from agent.followers import action_executor, modular  # noqa: F401
