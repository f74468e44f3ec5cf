"""Mapping: the semantic top-down map and object memory built from depth, detections and pose.

Modules register in the ``mapper`` registry (``contracts.registry.mapper``).
"""
