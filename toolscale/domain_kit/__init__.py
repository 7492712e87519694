"""The domain kit's stable import path: `toolscale.kit`, re-exported for outside domains."""

from toolscale.kit import (
    Draft,
    GoldRunner,
    KitError,
    Request,
    Template,
    difficulty,
    find_by,
    lookup,
    sample_task,
)

__all__ = [
    "Draft",
    "GoldRunner",
    "KitError",
    "Request",
    "Template",
    "difficulty",
    "find_by",
    "lookup",
    "sample_task",
]
