"""Imports the built-in dialogue modules so that they register (parsers: ``rules``, ``trained``)."""

from dialogue import (
    rules,  # noqa: F401
    trained,  # noqa: F401
)
