"""Calibrating the rendered world against AI2-THOR's own recorded interaction masks.

``masks`` reads ALFRED's recorded masks, ``check`` scores our rendered target masks against
them (``nesy alfred check-masks``), ``overlays`` draws the two for looking.
"""
