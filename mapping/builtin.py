"""Imports the built-in mapping modules so that they register."""

from mapping import oracle_map, semantic  # noqa: F401
