"""Evaluate a policy on held-out tasks: greedy multi-turn rollouts with its tools run in the
sandbox, judged by the verifier and scored with the reward it was trained on.

One rollout per task: the model writes, its tool calls (parsed by TRL's `parse_response`, as in
training) are executed through the task's environment, the results are appended, until it answers
without a tool call or `max_turns` is reached. The reward is training's: the same RewardConfig
(give the trained model's own, `trainer.reward_config.load_saved_reward(folder)`) and the same
reward functions, charged for the same tokens (the completion as TRL counts it: everything after
the prompt, the tool results included). The mean is of `reward_total` (the linear form); the
group-normalised form needs several rollouts per task, which this does not make.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolscale.rewards import RewardConfig
from toolscale.sandbox.bridge import SandboxThread
from trainer.environment import environment_factories, environment_key, tool_methods
from trainer.rewards import linear_rewards


@dataclass(frozen=True)
class Evaluation:
    tasks: int
    success_rate: float
    mean_reward: float
    mean_tool_calls: float
    mean_completion_tokens: float


def rollout(
    model: Any,
    tokenizer: Any,
    environment: Any,
    row: dict[str, Any],
    max_turns: int,
    max_new_tokens: int,
) -> tuple[list[dict[str, Any]], int]:
    """The completion messages of one greedy rollout (the prompt excluded) and its token count:
    the rendered conversation's tokens after the prompt's (generated and tool-result tokens)."""
    import torch
    from trl.chat_template_utils import parse_response

    environment.reset(**row)
    tools = tool_methods(environment)
    prompt = [
        {"role": "system", "content": row["system_prompt"]},
        {"role": "user", "content": row["instruction"]},
    ]
    completion: list[dict[str, Any]] = []
    for _ in range(max_turns):
        ids = tokenizer.apply_chat_template(
            prompt + completion,
            tools=tools,
            add_generation_prompt=True,
            tokenize=True,
            return_dict=True,
        )["input_ids"]
        with torch.no_grad():
            out = model.generate(
                torch.tensor([ids]),
                max_new_tokens=max_new_tokens,
                do_sample=False,
                pad_token_id=tokenizer.pad_token_id,
            )
        new = out[0, len(ids) :].tolist()
        message = parse_response(tokenizer, new, prefix=ids, tools=tools)
        completion.append(message)
        calls = message.get("tool_calls") or []
        if not calls:
            break
        for call in calls:
            function = call["function"]
            method = getattr(environment, function["name"], None)
            if method is None or function["name"].startswith("_"):
                result = f"Error: unknown tool {function['name']!r}"
            else:
                try:
                    result = method(**(function.get("arguments") or {}))
                except TypeError as exc:  # wrong argument names: the model's mistake, shown to it
                    result = f"Error: {exc}"
            completion.append({"role": "tool", "name": function["name"], "content": result})
    start = tokenizer.apply_chat_template(
        prompt, tools=tools, add_generation_prompt=True, tokenize=True, return_dict=True
    )["input_ids"]
    whole = tokenizer.apply_chat_template(
        prompt + completion, tools=tools, tokenize=True, return_dict=True
    )["input_ids"]
    return completion, max(len(whole) - len(start), 0)


def evaluate(
    model: Any,
    tokenizer: Any,
    rows: Any,
    reward: RewardConfig,
    workers: int = 2,
    max_turns: int = 4,
    max_new_tokens: int = 96,
) -> Evaluation:
    """Success rate (verified rollouts), mean reward_total under `reward`, mean tool calls and
    mean completion tokens over `rows`."""
    sandbox = SandboxThread(workers)
    try:
        keys = [environment_key(row["domain"], row["tools"]) for row in rows]
        classes = environment_factories(sorted(set(keys)), sandbox)
        environments, completions, tokens = [], [], []
        for row, key in zip(rows, keys, strict=True):
            environment = classes[key]()
            completion, count = rollout(
                model, tokenizer, environment, row, max_turns, max_new_tokens
            )
            completions.append(completion)
            tokens.append(count)
            environments.append(environment)
        columns = {k: [row[k] for row in rows] for k in rows.column_names}
        scores = [
            f(
                completions=completions,
                environments=environments,
                completion_ids=[[0] * n for n in tokens],  # only their lengths are read
                **columns,
            )
            for f in linear_rewards(reward)
        ]
        weights = [reward.w_o, reward.w_e, reward.w_p]
        totals = [
            sum(w * s[i] for w, s in zip(weights, scores, strict=True))
            for i in range(len(environments))
        ]
        verified = [env._labels["verified"] for env in environments]  # set by the rewards
        calls = [len(env.draft.tool_calls) for env in environments]
    finally:
        sandbox.close()
    n = len(environments)
    return Evaluation(n, sum(verified) / n, sum(totals) / n, sum(calls) / n, sum(tokens) / n)
