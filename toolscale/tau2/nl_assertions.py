"""The LLM judge of tau2's NL_ASSERTION reward component: which nl_assertions an attempt meets.

tau2 multiplies the components of a task's reward basis; NL_ASSERTION is 1 when an LLM finds
every one of the task's `nl_assertions` ("The agent confirmed the task was created") true of the
conversation, else 0. Here an OpenAI-compatible endpoint of the run's choosing (`--judge-base-url`,
`--judge-model`) is asked through the project's endpoint pool (retries, request cache, counts in
run.json's `endpoints.judge`), at temperature 0. It is asked only about attempts that passed every
other check (a wrong database makes tau2's reward 0 whatever the judge says), and only for tasks
whose basis holds NL_ASSERTION with assertions (`Tau2Domain.judged`).

The prompt and the reply format are ours, not tau2's: the judge sees the conversation without the
system prompt (customer and agent messages, the agent's tool calls and their results) and the
assertions numbered; it must answer one JSON object, `{"results": [{"id": 1, "met": true,
"reason": "..."}, ...]}`, judging every assertion exactly once with a JSON boolean. Anything else
(not JSON, an id missing, repeated or unknown, `"met": "yes"`) is a judge failure, as is a request
that fails after every retry: the attempt is rejected at stage "judge", neither verified nor
counted as the model's mistake (tau2 takes whatever list comes back, so an empty one passes
there). One Markdown code fence around the object is allowed: it is framing, not a verdict.
A malformed reply is not asked again: the request cache would return it, so a rerun is
reproducible; delete the cache to ask anew. Tasks of other domains are never judged here.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toolscale.core.errors import ConfigError
from toolscale.core.records import Message, Task
from toolscale.core.registry import get_domain
from toolscale.judge.verify import Verdict
from toolscale.llm.cache import RequestCache
from toolscale.llm.client import Chat, RetryPolicy, TeacherFailure
from toolscale.llm.ledger import Budget
from toolscale.play.factory import RolePools

if TYPE_CHECKING:
    from toolscale.config.generate import GenerateConfig
    from toolscale.play.factory import TeacherRun

UNMET = "nl_assertion not met: "  # how a failure reason written by the judge starts
FAILED = "the NL-assertion judge failed"
REASON_CHARS = 300  # of the judge's reason kept in a failure reason

SYSTEM = (
    "You review a finished conversation between a customer-service agent and a customer. You "
    "get the conversation and a numbered list of assertions that should hold for it. Decide "
    "for each assertion on its own whether the conversation shows it: the agent's messages, "
    "the tool calls the agent made and their results all count. An assertion is met only when "
    "the conversation clearly shows it.\n\n"
    "Answer with one JSON object and nothing else:\n"
    '{"results": [{"id": 1, "met": true, "reason": "one short sentence"}, ...]}\n'
    'with exactly one entry per assertion: its number as "id", "met" true or false.'
)


class JudgeFailure(Exception):
    """The judge gave no usable verdict (a malformed reply, or a request that failed)."""


@dataclass(frozen=True)
class Check:
    """The judge's verdict on one assertion."""

    assertion: str
    met: bool
    reason: str


def transcript(messages: list[Message]) -> str:
    """The conversation as the judge reads it: one line per turn, the system prompt left out."""
    lines = []
    for message in messages:
        if message.role == "user":
            lines.append(f"customer: {message.content}")
        elif message.role == "assistant":
            if message.content:
                lines.append(f"agent: {message.content}")
            lines += [f"agent calls {c.name} {c.arguments}" for c in message.tool_calls]
        elif message.role == "tool":
            lines.append(f"result of {message.name or 'the call'}: {message.content}")
    return "\n".join(lines)


def request(messages: list[Message], assertions: list[str]) -> list[dict[str, str]]:
    numbered = "\n".join(f"{i}. {a}" for i, a in enumerate(assertions, 1))
    ask = f"Conversation:\n{transcript(messages)}\n\nAssertions:\n{numbered}"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": ask}]


_FENCE = re.compile(r"^```[a-zA-Z]*\n(?P<body>.*)\n```$", re.DOTALL)


def parse_reply(text: str, count: int) -> list[tuple[bool, str]]:
    """(met, reason) per assertion 1..count, from the judge's reply; JudgeFailure saying what is
    wrong with any other reply.

    >>> parse_reply('{"results": [{"id": 1, "met": false, "reason": "never said"}]}', 1)
    [(False, 'never said')]
    """
    text = text.strip()
    fenced = _FENCE.match(text)
    try:
        data = json.loads(fenced["body"] if fenced else text)
    except json.JSONDecodeError:
        raise JudgeFailure("the reply is not a JSON object") from None
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        raise JudgeFailure('the reply has no "results" list')
    found: dict[int, tuple[bool, str]] = {}
    for entry in results:
        number = entry.get("id") if isinstance(entry, dict) else None
        if type(number) is not int or not 1 <= number <= count:
            raise JudgeFailure(f"a result names no assertion 1..{count} (id {number!r})")
        if number in found:
            raise JudgeFailure(f"assertion {number} is judged twice")
        met, reason = entry.get("met"), entry.get("reason", "")
        if not isinstance(met, bool):
            raise JudgeFailure(f'assertion {number}: "met" is {met!r}, not true or false')
        if not isinstance(reason, str):
            raise JudgeFailure(f'assertion {number}: "reason" is not a string')
        found[number] = (met, reason)
    missing = [str(n) for n in range(1, count + 1) if n not in found]
    if missing:
        raise JudgeFailure(f"assertions not judged: {', '.join(missing)}")
    return [found[n] for n in range(1, count + 1)]


def judged_assertions(task: Task) -> list[str]:
    """The assertions the judge must find met for `task` ([] when its reward has none)."""
    if not task.domain.startswith("tau2:"):
        return []
    judged = getattr(get_domain(task.domain), "judged", {})
    return list(judged.get(task.template, ()))


def judge_verdict(stage: str | None, reasons: list[str]) -> bool:
    """Whether a stored verdict is the judge's (a judge failure, or only unmet assertions):
    `validate` re-checks every stage before it but cannot ask the judge again."""
    if stage == "judge":
        return True
    return stage == "outcome" and bool(reasons) and all(r.startswith(UNMET) for r in reasons)


class AssertionJudge:
    """`await judge.verdict(task, messages)`: the Verdict of the NL_ASSERTION component."""

    def __init__(self, client: Chat, model: str) -> None:
        self.client = client
        self.model = model

    async def assess(self, messages: list[Message], assertions: list[str]) -> list[Check]:
        """The judge's verdict on each assertion; JudgeFailure when it gave none."""
        try:
            completion = await self.client.complete(
                request(messages, assertions), [], {"temperature": 0.0}
            )
        except TeacherFailure as failure:
            raise JudgeFailure(failure.reason) from None
        text = completion.message.get("content")
        if not isinstance(text, str) or not text.strip():
            raise JudgeFailure("the reply has no text")
        try:
            verdicts = parse_reply(text, len(assertions))
        except JudgeFailure as exc:
            excerpt = " ".join(text.split())[:200]
            raise JudgeFailure(f"malformed reply ({exc}): {excerpt}") from None
        return [Check(a, met, why) for a, (met, why) in zip(assertions, verdicts, strict=True)]

    async def verdict(self, task: Task, messages: list[Message]) -> Verdict:
        """Verified when every assertion of the task is met (or it has none); else failed at
        "outcome" naming each unmet assertion, or at "judge" saying why there is no verdict."""
        assertions = judged_assertions(task)
        if not assertions:
            return Verdict(True, None, [])
        try:
            checks = await self.assess(messages, assertions)
        except JudgeFailure as failure:
            return Verdict(False, "judge", [f"{FAILED} ({self.model}): {failure}"])
        unmet = [
            f"{UNMET}{c.assertion!r} (judge {self.model}: {c.reason[:REASON_CHARS]})"
            for c in checks
            if not c.met
        ]
        return Verdict(not unmet, "outcome" if unmet else None, unmet)


def check_judge(config: GenerateConfig) -> None:
    """ConfigError for judge options that cannot work, before anything runs."""
    if config.judge_base_url is None and config.judge_model is None:
        if config.judge_api_key_env is not None:
            raise ConfigError("--judge-api-key-env is for the judge; give --judge-model too")
        return
    if not config.judge_model:
        raise ConfigError(
            "--judge-base-url needs --judge-model (the judge endpoint's model name, e.g. "
            "gpt-4.1-2025-04-14, the model tau2 judges with)"
        )
    if config.judge_base_url is None and config.teacher != "openai":
        raise ConfigError(
            f"--judge-model needs --judge-base-url with --teacher {config.teacher} (only the "
            "openai teacher has an endpoint for the judge to share)"
        )
    if config.judge_base_url is not None and not config.judge_base_url.startswith(
        ("http://", "https://")
    ):
        raise ConfigError(
            f"--judge-base-url {config.judge_base_url!r} is not an http(s) URL; write e.g. "
            "https://api.openai.com/v1"
        )
    variable = config.judge_api_key_env or config.api_key_env
    if not os.environ.get(variable):
        raise ConfigError(
            f"the environment variable {variable} holding the judge endpoint's key is not set; "
            f"export {variable}=... (any value for a server that needs no key), or name another "
            "variable with --judge-api-key-env"
        )


def open_judge(config: GenerateConfig, run: TeacherRun, cache_dir: Path) -> AssertionJudge | None:
    """The run's judge, or None when none is configured. Its endpoint pool joins `run`'s (role
    "judge"), which closes it and reports its requests; it shares the teacher's request cache."""
    if config.judge_model is None:
        return None
    urls = (config.judge_base_url,) if config.judge_base_url else config.base_urls()
    variable = config.judge_api_key_env or config.api_key_env
    key = os.environ[variable]  # checked: check_judge
    timeout_s = config.effective_timeout_s(False)
    policy = RetryPolicy(timeout_s, config.max_retries, config.retry_base_s)
    if run.cache is None:  # the reference teacher opens no cache
        run.cache = RequestCache(config.cache_dir or cache_dir)
    # Unpriced, as the user simulator; its own budget object on the same limit.
    roles = RolePools(
        config, config.teacher == "local", policy, Budget(config.max_cost_usd), run.cache
    )
    pool = roles.pool(urls, config.judge_model, variable, key, priced=False)
    run.clients["judge"] = pool
    return AssertionJudge(pool, config.judge_model)
