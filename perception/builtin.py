"""Imports the built-in perception modules so that they register."""

from perception import maskrcnn, oracle_seg, oracle_visible  # noqa: F401
