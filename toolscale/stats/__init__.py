"""Typed, summable statistics of a run and every number its card shows."""
