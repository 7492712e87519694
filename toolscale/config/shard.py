"""`--shard I/N`: which chunks of a run's plan one of N independent jobs produces.

The plan (`toolscale.pipeline.generate.plan`) lists a run's chunks in a fixed order; shard I of N
takes
every N-th chunk from position I on. The partition depends only on the run's options, so N jobs (a
SLURM array, N machines) with the same options and shards 0/N ... N-1/N produce every chunk exactly
once, and `toolscale merge` puts their outputs together as whole chunks. Round robin rather than
contiguous ranges spreads every domain over the shards, so shards take about the same time.
This module does not run or merge anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from toolscale.core.errors import ConfigError

T = TypeVar("T")


@dataclass(frozen=True)
class Shard:
    """Shard `index` of `count` (0 <= index < count)."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """`"1/4"` -> Shard(1, 4); anything else is a ConfigError saying what to write.

        Example: "0/1" is the whole run; "3/3" and "0/0" are refused.
        """
        parts = text.strip().split("/")
        try:
            index, count = (int(p) for p in parts) if len(parts) == 2 else (None, None)
        except ValueError:
            index = count = None
        if index is None or count is None:
            raise ConfigError(
                f"--shard takes I/N, job I of N counted from 0, e.g. --shard 0/4 for the first "
                f"of 4 jobs (got {text!r})"
            )
        if count < 1:
            raise ConfigError(f"--shard {text}: N must be at least 1 (got {count})")
        if not 0 <= index < count:
            raise ConfigError(
                f"--shard {text}: I must be between 0 and {count - 1} (jobs are counted from 0)"
            )
        return cls(index, count)

    def pick(self, chunks: Sequence[T]) -> list[T]:
        """This shard's part of the plan: chunks index, index + count, index + 2 * count ..."""
        return list(chunks[self.index :: self.count])

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"
