"""Followers (agent 1): registered in the ``follower`` registry (see ``builtin.py``)."""
