"""Imports the built-in dialogue modules so that they register (parsers: ``rules``,
``trained``, ``oracle-parser``; dialogue managers: ``rules``,
``always-first``, ``never``)."""

from dialogue import (
    manager,  # noqa: F401
    oracle_parser,  # noqa: F401
    rules,  # noqa: F401
    trained,  # noqa: F401
)
