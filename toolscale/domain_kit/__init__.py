"""The domain kit's stable import path: `toolscale.kit`, re-exported for outside domains.

Holds:
"""

from toolscale.kit import (
    STOCK_PHRASES,
    Draft,
    Draw,
    Entity,
    Goal,
    GoldRunner,
    KitDomain,
    KitError,
    PolicyError,
    Request,
    StatefulDomain,
    Template,
    difficulty,
    find_by,
    finds,
    lists,
    lookup,
    parrot,
    raises,
    sample_task,
)

__all__ = [
    "STOCK_PHRASES",
    "Draft",
    "Draw",
    "Entity",
    "Goal",
    "GoldRunner",
    "KitDomain",
    "KitError",
    "PolicyError",
    "Request",
    "StatefulDomain",
    "Template",
    "difficulty",
    "find_by",
    "finds",
    "lists",
    "lookup",
    "parrot",
    "raises",
    "sample_task",
]
