"""What the Python API composes that no single stage owns: `merge` with every command's merger.

Everything else of the API (`toolscale.generate`, `toolscale.card`, ...) is the stage's own
function, re-exported lazily by `toolscale/__init__`; docs/api.md lists them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolscale.domaingen.domain_merge import DOMAINGEN
from toolscale.domaingen.domain_synthesis import SYNTHESIZE_DOMAIN_COMMAND
from toolscale.pipeline.driver import Command
from toolscale.pipeline.merge import Merger
from toolscale.pipeline.merge import merge as merge_outputs
from toolscale.synthesize.synthesis import SYNTHESIZE_COMMAND
from toolscale.synthesize.synthesis_merge import SYNTHESIZE


def mergers() -> dict[Command, Merger]:
    """The merger of each command whose outputs `generate`'s merge does not join itself."""
    return {SYNTHESIZE_COMMAND: SYNTHESIZE, SYNTHESIZE_DOMAIN_COMMAND: DOMAINGEN}


def merge(outs: Sequence[Path | str], out: Path | str) -> dict[str, Any]:
    """`toolscale merge`: join the outputs of one run's --shard jobs (of generate, synthesize or
    synthesize-domain) into the new or empty folder `out`, equal to an unsharded run; returns
    its run.json. ConfigError when the outputs are not one run's shards."""
    by_name = {command.name: merger for command, merger in mergers().items()}
    return merge_outputs([Path(p) for p in outs], Path(out), by_name)
