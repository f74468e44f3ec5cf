"""Perception: turns egocentric frames into object detections (classes, masks, scores).

Modules register in the ``perception`` registry (``contracts.registry.perception``).
"""
