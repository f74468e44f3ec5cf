"""The agent side of nesy: Follower wiring, Commanders, runners, metrics, the ``nesy`` CLI.

Also home of the shared infrastructure every package may import: the module registries
(``agent.registry``), the config system (``agent.config``, ``agent.settings``) and the
error base class (``agent.errors``). Importing ``agent`` itself imports nothing heavy.
"""
