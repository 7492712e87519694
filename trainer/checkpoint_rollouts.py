"""Evaluate a local checkpoint on tasks: multi-turn rollouts with its tools run in the sandbox,
judged by the verifier and scored with the reward it was trained on (`toolscale-train evaluate`
puts the result in its table, `trainer.evaluate`).

One rollout per task, greedy (or sampled at `temperature`, seeded): the model writes, its tool
calls (parsed by TRL's `parse_response`, as in training) are executed through the task's
environment, the results are appended, until it answers without a tool call or `max_turns` is
reached. Rollouts advance turn by turn in batches of tasks that offer the same tools, whose
common head (their system prompt up to where their price tables differ) is encoded once
(`trainer.decode`); batching by tools rather than by whole system prompt makes the batches of a
run with several price schedules several times larger. The reward is training's: the same
RewardConfig (give the trained model's own, `trainer.reward_config.load_saved_reward(folder)`)
and the same reward functions, charged for the same tokens (the completion as TRL counts it:
everything after the prompt, the tool results included). The mean is of `reward_total` (the
linear form); the group-normalised form needs several rollouts per task, which this does not
make. Each rollout's labels are kept (`Evaluation.rollouts`) for breakdowns. Costs are averaged
over every rollout (`mean_cost`: a failed rollout cost what it spent) and over the solved ones
(`cost_per_solved`); each rollout's route class is kept (`route`, in the oracle's terms,
`trainer.route_mix.rollout_route`). A call the model makes is handled as TRL's tool loop
handles it: only the environment's tools can be called (never `reset` or anything private), and
a refused call is answered with TRL's error text and still recorded by the judge.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from toolscale.judge.rewards import RewardConfig
from toolscale.play.usersim import UserSimulator
from toolscale.sandbox.bridge import SandboxThread
from trainer.decode import continue_prompts
from trainer.environment import (
    environment_factories,
    environment_key,
    policy_system_prompt,
    tool_methods,
)
from trainer.reward_functions import final_answer, linear_rewards
from trainer.route_mix import rollout_route
from trainer.table import without_nan
from trainer.user_seat import close_user

KEPT_LABELS = (
    "verified",
    "total_cost",
    "total_latency_ms",
    "num_tool_calls",
    "calls_per_tool",
    "preference_profile",
    "preference_compliant",
    "reward_outcome",
    "reward_efficiency",
    "reward_preference",
)


@dataclass(frozen=True)
class Evaluation:
    tasks: int
    success_rate: float
    mean_reward: float
    mean_tool_calls: float
    mean_completion_tokens: float
    mean_cost: float  # mean total_cost ($) over every rollout, failed ones included
    cost_per_solved: float  # mean total_cost ($) of the verified rollouts; nan when none
    preference_compliance: float  # share of rollouts that keep their profile's hard constraints
    rollouts: tuple[dict[str, Any], ...] = ()  # per task: id, labels, reward_total, answer

    def summary(self) -> dict[str, Any]:
        """The aggregate numbers (no per-rollout records)."""
        return {k: v for k, v in self.__dict__.items() if k != "rollouts"}


def play_calls(environment: Any, message: dict[str, Any]) -> list[dict[str, Any]]:
    """Execute a message's tool calls in its environment, as TRL 1.16's tool loop does; the tool
    messages that answer them. A wrong tool name or argument is the model's mistake, shown to it
    as the tool's answer (TRL's own error text)."""
    tools = {method.__name__: method for method in tool_methods(environment)}
    replies = []
    for call in message.get("tool_calls") or []:
        function = call.get("function", {})
        name = function.get("name", "unknown")
        try:
            if name not in tools:
                raise ValueError(f"Tool {name} not found.")
            result: Any = tools[name](**function.get("arguments"))
        except Exception as exc:  # what TRL does: the error goes back to the model
            result = {"error": str(exc)}
        replies.append({"role": "tool", "name": name, "content": str(result)})
    return replies


def _render(tokenizer: Any, messages: list, tools: list, generation: bool) -> list[int]:
    return tokenizer.apply_chat_template(
        messages, tools=tools, add_generation_prompt=generation, tokenize=True, return_dict=True
    )["input_ids"]


def _stop_ids(model: Any, tokenizer: Any) -> set[int]:
    configured = model.generation_config.eos_token_id
    ids = set(configured if isinstance(configured, list) else [configured])
    return {i for i in ids | {tokenizer.eos_token_id} if i is not None}


def rollouts(
    model: Any,
    tokenizer: Any,
    environments: list[Any],
    rows: list[dict[str, Any]],
    max_turns: int,
    max_new_tokens: int,
    batch_size: int = 16,
    temperature: float = 0.0,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[list[dict[str, Any]]], list[int]]:
    """The completion messages of one rollout per row (prompts excluded) and their token counts:
    each rendered conversation's tokens after its prompt's (generated and tool-result tokens);
    `progress` hears after every turn how many rollouts are done."""
    import torch
    from trl.chat_template_utils import parse_response

    generator = torch.Generator().manual_seed(seed)
    stop, pad = _stop_ids(model, tokenizer), tokenizer.pad_token_id
    tools: list[list[dict[str, Any] | Callable[..., Any]]] = []  # as TRL's parse_response types it
    prompts = []
    for environment, row in zip(environments, rows, strict=True):
        environment.reset(**row)
        tools.append(list(tool_methods(environment)))
        prompts.append(
            [
                {
                    "role": "system",
                    "content": policy_system_prompt(row["domain"], row["system_prompt"]),
                },
                {"role": "user", "content": row["instruction"]},
            ]
        )
    completions: list[list[dict[str, Any]]] = [[] for _ in rows]
    store: dict = {}
    active = list(range(len(rows)))
    for turn in range(max_turns):
        groups: dict[tuple[str, str], list[int]] = {}
        for i in active:
            groups.setdefault((rows[i]["domain"], rows[i]["tools"]), []).append(i)
        finished = set()
        for members in groups.values():
            for start in range(0, len(members), batch_size):
                batch = members[start : start + batch_size]
                ids = [
                    _render(tokenizer, prompts[i] + completions[i], tools[i], True) for i in batch
                ]
                new = continue_prompts(
                    model, ids, stop, pad, max_new_tokens, temperature, generator, store
                )
                for i, prefix, tokens in zip(batch, ids, new, strict=True):
                    message = parse_response(tokenizer, tokens, prefix=prefix, tools=tools[i])
                    completions[i].append(message)
                    replies = play_calls(environments[i], message)
                    completions[i].extend(replies)
                    if not replies:
                        finished.add(i)
        active = [i for i in active if i not in finished]
        if progress is not None:
            progress(f"turn {turn + 1}: {len(rows) - len(active)} of {len(rows)} rollouts done")
        if not active:
            break
    counts = []
    for i in range(len(rows)):
        head = _render(tokenizer, prompts[i], tools[i], True)
        whole = _render(tokenizer, prompts[i] + completions[i], tools[i], False)
        counts.append(max(len(whole) - len(head), 0))
    return completions, counts


def evaluate_checkpoint(
    model: Any,
    tokenizer: Any,
    rows: Any,
    reward: RewardConfig,
    workers: int = 2,
    max_turns: int = 4,
    max_new_tokens: int = 96,
    batch_size: int = 16,
    temperature: float = 0.0,
    seed: int = 0,
    worlds: Mapping[str, dict[str, Any]] | None = None,
    user: UserSimulator | None = None,
    progress: Callable[[str], None] | None = None,
) -> Evaluation:
    """Success rate (verified rollouts), mean reward_total under `reward`, mean tool calls, mean
    completion tokens, mean cost per solved task and preference compliance over `rows` (whose
    stateful tasks derive from `worlds`, `trainer.data.dataset_worlds`, and whose caller is
    `user`, an LLM user, or the scripted user when None)."""
    model.eval()
    sandbox = SandboxThread(workers)
    try:
        listed = list(rows)
        keys = [environment_key(row["domain"], row["tools"]) for row in listed]
        classes = environment_factories(sorted(set(keys)), sandbox, worlds, user)
        environments = [classes[key]() for key in keys]
        completions, tokens = rollouts(
            model,
            tokenizer,
            environments,
            listed,
            max_turns,
            max_new_tokens,
            batch_size,
            temperature,
            seed,
            progress,
        )
        columns = {k: [row[k] for row in listed] for k in listed[0]}
        for f in linear_rewards(reward):  # judge every rollout as training does
            f(
                completions=completions,
                environments=environments,
                completion_ids=[[0] * n for n in tokens],  # only their lengths are read
                **columns,
            )
        # A rollout left out of training (a crashed tool) still counts here, at what it scored.
        # Each environment's labels were set by the reward functions just called (rollout_labels).
        labels = [cast(dict[str, Any], env._labels) for env in environments]
        totals = [float(x["reward_total"]) for x in labels]
        records = tuple(
            {
                "id": row["id"],
                **{k: x[k] for k in KEPT_LABELS},
                "failure_stage": x["failure_stage"],
                "excluded": x["excluded"],
                "reward_total": total,
                "completion_tokens": count,
                "final_answer": final_answer(completion),
                "route": rollout_route(x),
                "tools_called": sorted({c["name"] for c in x["tool_calls"]}),
            }
            for row, x, total, count, completion in zip(
                listed, labels, totals, tokens, completions, strict=True
            )
        )
    finally:
        sandbox.run(close_user(user))
        sandbox.close()
    n = len(records)
    solved = [r["total_cost"] for r in records if r["verified"]]
    return Evaluation(
        tasks=n,
        success_rate=len(solved) / n,
        mean_reward=sum(totals) / n,
        mean_tool_calls=sum(r["num_tool_calls"] for r in records) / n,
        mean_completion_tokens=sum(tokens) / n,
        mean_cost=sum(r["total_cost"] for r in records) / n,
        cost_per_solved=sum(solved) / len(solved) if solved else math.nan,
        preference_compliance=sum(bool(r["preference_compliant"]) for r in records) / n,
        rollouts=records,
    )


def dumps(evaluation: Evaluation) -> str:
    """The evaluation as JSON text (nan written as null)."""
    body = {**evaluation.summary(), "rollouts": evaluation.rollouts}
    return json.dumps(without_nan(body), indent=2)
