"""Imports the built-in perception modules so that they register."""

from perception import oracle_seg, oracle_visible  # noqa: F401
