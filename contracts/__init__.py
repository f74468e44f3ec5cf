"""The shared contracts of nesy: the data types, module bases, registries, errors and camera
geometry that every package exchanges. It imports nothing of the project, so every package
may import it and it can never close an import cycle (docs/architecture.md has the rules).
"""
