"""toolscale: verifiable multi-turn tool-use training data for orchestrator models."""

__version__ = "0.1.0"
