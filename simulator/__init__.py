"""The built-in THOR-compatible household simulator (world state, rules, scenes, tasks)."""
