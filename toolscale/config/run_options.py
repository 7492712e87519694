"""The options every run command shares: its output folder, `--resume` and `--shard I/N`.

`GenerateConfig`, `SynthesizeConfig` and synthesize-domain's config build on `RunOptions`, so
each of these options is declared once (`toolscale.config.option`), as are the LLM endpoint's
(`TeacherOptions`, below it). What `--resume` must keep is each command's own list
(`toolscale.pipeline.driver.Command.resume_keys`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from toolscale.config.option import option
from toolscale.config.shard import Shard
from toolscale.config.teacher import TeacherOptions


def parse_shard(text: str | None) -> Shard | None:
    """`--shard I/N` as a Shard (ConfigError for bad text); None for the whole run."""
    return None if text is None else Shard.parse(text)


@dataclass(frozen=True, kw_only=True)
class RunOptions(TeacherOptions):
    out: Path = option(
        help="Output folder (new or empty, or with --resume).",
        cli_type=Path | None,
        cli_default=None,
    )
    resume: bool = option(
        False, help="Continue a run in --out with the same options; its finished work is kept."
    )
    # This job's part of the run (None: all of it), see toolscale.config.shard; `toolscale
    # merge` joins the jobs' outputs into the output of one run.
    shard: Shard | None = option(
        None,
        help="Produce only job I's part of N, e.g. 0/4; join with toolscale merge.",
        cli_type=str | None,
        parse=parse_shard,
    )

    def run_resolved(self, *paths: str) -> dict[str, Any]:
        """The fields as run.json holds them before a command resolves its own: without
        `resume` (not a setting of the run), `shard` and the paths (`out`, `cache_dir`,
        `experts` and `paths`) as text, the endpoint URLs as a list."""
        values = asdict(self)
        values.pop("resume")
        values["shard"] = None if self.shard is None else str(self.shard)
        for key in ("out", "cache_dir", "experts", *paths):
            values[key] = None if values[key] is None else str(values[key])
        values["base_url"] = list(self.base_urls()) or None
        return values
