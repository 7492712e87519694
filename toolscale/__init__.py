"""toolscale: verifiable multi-turn tool-use training data for orchestrator models.

Holds:
- `__main__`: `python -m toolscale ...` runs the `toolscale` command line (as the installed script
  does).
- `check/`: checks of a domain and of an output's rewards: check-domain, the fuzzer, check-rewards.
- `cli/`: the `toolscale` command line (`main`): a thin shell, each subcommand calls one library
  function.
- `config/`: the options of a run, each declared once: run configs, --shard, --config files,
  provenance.
- `contract`: the domain contract's stable import path: `toolscale.core.contract`, re-exported.
- `core/`: what every stage shares: the domain contract, records, canonical state, patches, ids,
  errors.
- `dialogue/`: conversations with a caller: the scripted user, the reference agent's voice, the gold
  talk.
- `domain_kit/`: the domain kit's stable import path: `toolscale.kit`, re-exported for outside
  domains.
- `domaingen/`: `toolscale synthesize-domain`: an LLM writes kit v2 domains from topics; only those
  that pass every execution gate, run in the sandbox, are kept (docs/synthesize-domain.md).
- `economics/`: the cost and user model: price schedules and tables, and user preferences.
- `judge/`: judge one attempt: verify, measure, label, reward (the Rubric composes them).
- `kit/`: the domain kit: what every stateful (tau2-style) domain needs, written once.
- `llm/`: talking to OpenAI-compatible chat endpoints: client, request cache, tool-call parsing.
- `oracle/`: the oracle route of a task: every route played and judged, the best made the gold.
- `pipeline/`: run generate (plan, one task, one chunk, the Ray executor, merge) and the run
  driver every command shares.
- `play/`: play the agent's side of an episode: teachers, the LLM user simulator, transcripts,
  rollouts.
- `publish/`: what users do with an output: the card, validate, push, export.
- `sample/`: build full tasks: ids, schemas, the run's worlds and the task sources.
- `sandbox/`: execution outside the pipeline process: domain tools in a worker pool, code in a
  subprocess.
- `stats/`: typed, summable statistics of a run and every number its card shows.
- `synthesize/`: `toolscale synthesize`: an LLM proposes tasks over a domain's tools and world;
  execution, a do-nothing check, de-duplication and solver attempts filter them (ToolScale's
  pipeline).
- `tau2/`: tau2-format domains: tau2-bench's own (airline, retail, ...) and the ToolScale
  environments.
- `tools/`: tools shared by several domains, as Toolkit mixins: arithmetic, code execution, experts.
- `view/`: `toolscale view`: a local, read-only browser over an output's tasks and attempts
  (docs/view.md).
- `write/`: the dataset on disk: fixed features, the output folder, the rows' JSON Schemas.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

# The validation API, imported on first use: it pulls in datasets, jsonschema and the sandbox,
# which `import toolscale` alone should not pay for.
_API = ("validate_trace", "validate_dataset", "assert_valid_trace", "assert_valid_dataset")
__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    if name in _API:
        from toolscale.publish import api

        return getattr(api, name)
    raise AttributeError(f"module 'toolscale' has no attribute {name!r}")
