"""What a `synthesize --shard I/N` job leaves for `toolscale merge` beside its rows.

A shard cannot decide which of its candidates are near-duplicates: the earlier twin of one may
be in another shard. So it solves every candidate that reaches that step and writes, per domain,
each one's features and solver outcome (`Deferred`) and the yields of all its other candidates
(`before_dedup`) to `OUT/.toolscale/synthesize-shard.json`. Merge runs the near-duplicate step
over the union in candidate order and adds each candidate's yields as kept or as a duplicate.
This module only defines and reads that file; `toolscale.synthesize.synthesis_merge` uses it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from toolscale.core.errors import ConfigError
from toolscale.stats.yields import Yields
from toolscale.write.output import write_json

PART = Path(".toolscale", "synthesize-shard.json")


class Deferred(BaseModel):
    """A shard's candidate past the do-nothing and decontamination checks, and what the solver
    made of it: enough to re-run the near-duplicate step and to write its duplicate row."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int
    tokens: list[str]  # dedup.candidate_features, sorted
    intent: str
    text: str  # the model's answer, as a rejected row stores it
    provenance: dict[str, Any]  # the candidate's provenance before the filters' results
    passes: str  # "c/K"
    solved: bool
    band: bool

    def yields(self, duplicate: bool) -> Yields:
        """Its part of the funnel: as the duplicate of an earlier candidate, or as kept."""
        if duplicate:
            return Yields.of_candidate("duplicate")
        return Yields.of_candidate(None if self.solved else "solver", self.passes, self.band)


class DomainPart(BaseModel):
    model_config = ConfigDict(extra="forbid")

    before_dedup: Yields
    candidates: list[Deferred]


class ShardPart(BaseModel):
    """The whole file: one entry per domain the shard ran."""

    model_config = ConfigDict(extra="forbid")

    domains: dict[str, DomainPart]


def write_part(root: Path, part: ShardPart) -> None:
    write_json(root / PART, part.model_dump(mode="json"))


def read_part(root: Path) -> ShardPart:
    """The file of the shard output `root`; missing or unreadable is a ConfigError."""
    path = root / PART
    try:
        return ShardPart.model_validate_json(path.read_bytes())
    except (OSError, ValidationError) as exc:
        raise ConfigError(
            f"{path} is missing or unreadable ({exc.__class__.__name__}); run that shard again "
            "with synthesize --resume and its options, then merge again"
        ) from None
