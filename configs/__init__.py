"""Shipped YAML configs: ``default.yaml`` (no oracles), ``oracle.yaml`` (the upper bound)
and one small file per ablation in ``ablations/``.

Shipped as package data so an installed copy finds them; ``agent.config`` resolves a
config name such as ``default`` or ``ablations/render-egl`` to a file here.
"""

from pathlib import Path

CONFIG_DIR = Path(__file__).resolve().parent
