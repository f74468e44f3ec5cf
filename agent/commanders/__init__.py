"""Rule-based Commanders (agent 0): registered in the ``commander`` registry (``builtin.py``)."""
