"""The agent side of nesy: Follower wiring, Commanders, the episode runner, metrics,
evaluation and the ``nesy`` CLI, plus the config system (``agent.config``,
``agent.config_schema``, ``agent.settings``). The shared types, registries and errors are in ``contracts``.
Importing ``agent`` itself imports nothing heavy.
"""
