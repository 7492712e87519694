"""The domain kit's stable import path: `toolscale.kit`, re-exported for outside domains."""

from toolscale.kit import (
    STOCK_PHRASES,
    Draft,
    GoldRunner,
    KitDomain,
    KitError,
    Request,
    Template,
    difficulty,
    find_by,
    lookup,
    parrot,
    sample_task,
)

__all__ = [
    "STOCK_PHRASES",
    "Draft",
    "GoldRunner",
    "KitDomain",
    "KitError",
    "Request",
    "Template",
    "difficulty",
    "find_by",
    "lookup",
    "parrot",
    "sample_task",
]
