"""Dialogue: parsing instructions and utterances, asking clarifying questions, generating speech.

Modules register in the ``parser`` and ``dialogue_manager`` registries.
"""
