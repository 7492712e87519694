"""The LLM teacher: any OpenAI-compatible endpoint plays the agent, the sandbox executes its calls.

One attempt is one conversation: the task's system prompt, its instruction as the user turn, and
its tools. Each answer's tool calls (native, or written in the text; see `toolscale.llm.toolcalls`)
run in the task's own sandbox episode and their results go back to the model, until it answers
without a call (the final answer), or `max_turns` answers have been used. Mistakes the model makes
(an unknown tool, arguments that do not parse or break the schema) go back to it as tool errors
and are counted; the verifier judges them. A request that fails after every retry ends the
attempt as a rejected draft with failure stage "teacher". `--attempts K` plays K attempts per
task, each its own cache entry. When the task has a user scenario, a user simulator answers the
agent's text replies until it says a stop marker. Nothing here decides whether an attempt is good.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from toolscale.core import task_state
from toolscale.core.records import Message, Task
from toolscale.dialogue import scripted_user
from toolscale.llm.client import Chat, TeacherFailure
from toolscale.llm.toolcalls import ParsedCall, parse_message
from toolscale.play.transcript import (
    NO_ANSWER,
    Transcript,
    final_answer_of,
    open_draft,
    record_turn,
    said_to_user,
)
from toolscale.play.usersim import UserSimulator, scenario_for
from toolscale.sample.tasks import SampledTask
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import Episode, SandboxPool


def api_message(message: Message) -> dict[str, Any]:
    """A trace message as the chat API expects it."""
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    if message.role == "assistant" and message.tool_calls:
        return {
            "role": "assistant",
            "content": message.content or None,
            "tool_calls": [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments},
                }
                for c in message.tool_calls
            ],
        }
    return {"role": message.role, "content": message.content}


class OpenAITeacher:
    """Plays each task `attempts` times against `client`, at most `concurrency` attempts at once."""

    def __init__(
        self,
        client: Chat,
        *,
        name: str,
        attempts: int = 1,
        temperature: float = 0.0,
        top_p: float | None = None,
        max_tokens: int | None = 1024,
        max_turns: int = 12,
        concurrency: int = 64,
        user: UserSimulator | None = None,
    ) -> None:
        self.client = client
        self.name = name
        self.k = attempts
        self.sampling = {"temperature": temperature, "top_p": top_p, "max_tokens": max_tokens}
        self.max_turns = max_turns
        self.slots = asyncio.Semaphore(concurrency)
        self.user = user

    async def attempts(self, item: SampledTask, pool: SandboxPool) -> list[Transcript]:
        return list(await asyncio.gather(*(self._bounded(item, pool, k) for k in range(self.k))))

    async def _bounded(self, item: SampledTask, pool: SandboxPool, attempt: int) -> Transcript:
        async with self.slots:
            return await self.play(item.task, pool, attempt)

    async def play(self, task: Task, pool: SandboxPool, attempt: int) -> Transcript:
        """One attempt, start to end; the draft holds everything said and executed."""
        draft = open_draft(task, "sampled", attempt)
        episode = pool.episode(task.domain, task_state.state_json(task))
        try:
            await self._converse(task, draft, episode, attempt)
        except TeacherFailure as failure:
            draft.failure = ("teacher", failure.reason)
        draft.final_state_hash = await episode.finish()
        return draft

    async def _converse(
        self, task: Task, draft: Transcript, episode: Episode, attempt: int
    ) -> None:
        api = [api_message(m) for m in draft.messages]
        sampling = {**self.sampling, "_attempt": attempt}
        scenario = scenario_for(task)
        for _ in range(self.max_turns):
            completion = await self.client.complete(api, task.tools, sampling)
            draft.teacher_prompt_tokens += completion.prompt_tokens
            draft.teacher_completion_tokens += completion.completion_tokens
            draft.teacher_latency_ms = round(draft.teacher_latency_ms + completion.latency_ms, 3)
            content, calls = parse_message(completion.message)
            if not calls:
                draft.messages.append(Message(role="assistant", content=content))
                draft.final_answer = final_answer_of(task, draft, content)
                if not draft.final_answer.strip():
                    draft.failure = ("teacher", NO_ANSWER)
                    return
                if scenario is None:
                    return
                if scripted_user.in_circles(said_to_user(draft.messages)):
                    draft.failure = ("teacher", scripted_user.CIRCLES)
                    return
                if self.user is None:  # no user endpoint: the deterministic scripted user
                    said = said_to_user(draft.messages)
                    reply, name = scripted_user.reply(scenario, said), "scripted_user"
                else:
                    reply = await self.user.reply(scenario, draft.messages, attempt)
                    name = "user_simulator"
                if reply is None:
                    return
                draft.messages.append(Message(role="user", content=reply, name=name))
            else:
                executed = [
                    (c.name, c.arguments, await self._run(task, draft, episode, c)) for c in calls
                ]
                record_turn(draft, task, content, executed)
            api.extend(api_message(m) for m in draft.messages[len(api) :])
        draft.failure = ("teacher", f"no final answer within {self.max_turns} turns")

    async def _run(
        self, task: Task, draft: Transcript, episode: Episode, call: ParsedCall
    ) -> CallOutcome:
        """Execute one call in the episode; arguments that do not parse never reach it."""
        if call.name not in task.tool_names():
            draft.model_errors["unknown_tool"] += 1
        try:
            arguments = json.loads(call.arguments or "{}")
        except json.JSONDecodeError as exc:
            draft.model_errors["unparsable_arguments"] += 1
            return CallOutcome(
                f"Error: the arguments of {call.name} are not valid JSON ({exc.msg}); "
                "send a JSON object",
                "error",
            )
        except (ValueError, RecursionError):  # valid JSON that Python refuses to read
            draft.model_errors["unparsable_arguments"] += 1
            return CallOutcome(
                f"Error: the arguments of {call.name} cannot be read (an integer of more than "
                "4,300 digits, or arrays nested too deeply); send a JSON object of plain values",
                "error",
            )
        outcome = await episode.call(call.name, arguments)
        if outcome.output.startswith("Error: invalid arguments"):
            draft.model_errors["invalid_arguments"] += 1
        return outcome
