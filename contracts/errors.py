"""The project's error base class: errors meant for the person running a command.

A ``NesyError`` carries a message that says what was wrong and how to fix it; the CLI
prints it on one line (no traceback unless ``--debug``) and exits non-zero.
"""


class NesyError(Exception):
    """An error caused by the user's input (config, episode file, module name, ...)."""
