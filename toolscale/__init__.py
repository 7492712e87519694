"""toolscale: verifiable multi-turn tool-use training data for orchestrator models.

The Python API is one function per `toolscale` subcommand, the function that subcommand calls
(docs/api.md): `toolscale.generate(out="out/demo", domains="bank,math", num_tasks=20)`,
`toolscale.validate`, `toolscale.card`, ... Each is imported on first use, so `import toolscale`
alone stays fast.

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
- `python_api`: what the Python API composes that no single stage owns (`merge` with every
  command's merger).
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

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> (module, name there): the subcommands' functions, then the validation API.
_API = {
    "generate": ("toolscale.pipeline.generate", "generate"),
    "generate_config": ("toolscale.pipeline.generate_options", "generate_config"),
    "synthesize": ("toolscale.synthesize.synthesis", "synthesize"),
    "synthesize_domain": ("toolscale.domaingen.domain_synthesis", "synthesize_domain"),
    "validate": ("toolscale.publish.validate", "validate_output"),
    "merge": ("toolscale.python_api", "merge"),
    "domains": ("toolscale.core.registry", "registered"),
    "check_domain": ("toolscale.check.check_domain", "check_domain"),
    "new_domain": ("toolscale.kit.scaffold", "new_domain"),
    "card": ("toolscale.publish.card", "card"),
    "check_rewards": ("toolscale.check.reward_check", "check_rewards"),
    "push": ("toolscale.publish.push", "push"),
    "export": ("toolscale.publish.export", "export"),
    "view": ("toolscale.view.app", "view"),
    "validate_trace": ("toolscale.publish.api", "validate_trace"),
    "validate_dataset": ("toolscale.publish.api", "validate_dataset"),
    "assert_valid_trace": ("toolscale.publish.api", "assert_valid_trace"),
    "assert_valid_dataset": ("toolscale.publish.api", "assert_valid_dataset"),
}
__all__ = [
    "__version__",
    "assert_valid_dataset",
    "assert_valid_trace",
    "card",
    "check_domain",
    "check_rewards",
    "domains",
    "export",
    "generate",
    "generate_config",
    "merge",
    "new_domain",
    "push",
    "synthesize",
    "synthesize_domain",
    "validate",
    "validate_dataset",
    "validate_trace",
    "view",
]

if TYPE_CHECKING:  # what type checkers and editors see; nothing is imported at run time
    from toolscale.check.check_domain import check_domain
    from toolscale.check.reward_check import check_rewards
    from toolscale.core.registry import registered as domains
    from toolscale.domaingen.domain_synthesis import synthesize_domain
    from toolscale.kit.scaffold import new_domain
    from toolscale.pipeline.generate import generate
    from toolscale.pipeline.generate_options import generate_config
    from toolscale.publish.api import (
        assert_valid_dataset,
        assert_valid_trace,
        validate_dataset,
        validate_trace,
    )
    from toolscale.publish.card import card
    from toolscale.publish.export import export
    from toolscale.publish.push import push
    from toolscale.publish.validate import validate_output as validate
    from toolscale.python_api import merge
    from toolscale.synthesize.synthesis import synthesize
    from toolscale.view.app import view


def __getattr__(name: str) -> Any:
    if name in _API:
        module, attribute = _API[name]
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module 'toolscale' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
