"""A loopback OpenAI-compatible chat server that plays scripted turns and injects faults.

A real HTTP/1.1 server (asyncio streams, keep-alive) on 127.0.0.1, run in a background thread
(`FakeOpenAI` context manager) or as its own process (`python -m tests.teachers.fake_openai`, for
the benchmark). It answers `POST /v1/chat/completions` from a *plan*: for each user instruction,
the list of assistant turns to give (tool calls or a final text), indexed by how many assistant
turns the conversation already holds. Faults are chosen per instruction (`FAULTS`); transient ones
fire only the first time the first request of a task is seen, so the client's retry succeeds. Every
request is counted, and the Authorization header of each is kept so tests can check the key. The
probe a run sends before any task (`toolscale.llm.probe`) is always answered and counted apart
(`probes`), so `requests` and `bodies` hold the tasks' requests only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from toolscale.llm.probe import PROBE

# fault name -> what happens (see `_fault_reply`)
FAULTS = (
    "429",  # first time: 429 with Retry-After
    "500",  # first time: 500
    "503",  # first time: 503
    "hang",  # first time: no answer until the client times out
    "drop",  # first time: the connection is closed without an answer
    "malformed_once",  # first time: a 200 whose body is not JSON
    "malformed",  # always a 200 whose body is not JSON: the attempt fails at stage "teacher"
    "unknown_tool",  # the first turn calls a tool that does not exist, then the plan goes on
    "wrong_types",  # the first call's arguments have wrong types (schema-invalid)
    "unparsable",  # the first call's arguments are not JSON at all
    "hermes",  # every call is written as <tool_call>{...}</tool_call> in the content
    "bare_json",  # every call is written as a bare JSON object in the content
    "flaky",  # every second identical first request is answered wrongly at once
    "echo_401",  # 401 whose body echoes the Authorization header it received
)


def question(item: Any) -> str:
    """A sampled task's instruction less its preference sentence: the key of its plan. The
    oracle may restate the preference (a budget fitted to the routes as played,
    `toolscale.sample.budgets`), so the run's first message ends differently."""
    instruction, said = item.task.instruction, item.task.preference.instruction or ""
    return instruction[: -len(said)] if said and instruction.endswith(said) else instruction


def planned(mapping: dict[str, Any], instruction: str) -> str | None:
    """The key of `mapping` that `instruction` is, or (the longest) it begins with."""
    if instruction in mapping:
        return instruction
    found = [k for k in mapping if instruction.startswith(k)]
    return max(found, key=len) if found else None


class Plans:
    """question -> list of turns; a turn is {"calls": [(name, args_dict), ...]} or
    {"content": str}. `faults` maps question -> fault name. A request is planned by its first
    user message: the key it equals or begins with (`question`)."""

    def __init__(
        self, turns: dict[str, list[dict[str, Any]]], faults: dict[str, str] | None = None
    ) -> None:
        self.turns = turns
        self.faults = faults or {}
        self.seen: Counter[str] = Counter()
        self.requests = 0  # requests of tasks; the runs' probes are counted apart
        self.probes = 0
        self.authorizations: set[str] = set()
        self.bodies: list[dict[str, Any]] = []
        self.retry_after_s = 0.2
        self.hang_s = 5.0

    def reply(self, body: dict[str, Any], authorization: str = "") -> tuple[str, Any]:
        """("json", dict) | ("raw", (status, headers, text)) | ("hang", s) | ("drop", None)."""
        messages = body["messages"]
        first_message = next(m["content"] for m in messages if m["role"] == "user")
        instruction = planned(self.turns, first_message) or first_message
        fault = self.faults.get(planned(self.faults, first_message) or first_message, "")
        key = json.dumps(body, sort_keys=True)
        turn = sum(1 for m in messages if m["role"] == "assistant")
        first = self.seen[key] == 0 and turn == 0  # transient faults hit each task once
        self.seen[key] += 1
        if first and fault in ("429", "500", "503"):
            headers = {"Retry-After": f"{self.retry_after_s:g}"} if fault == "429" else {}
            return "raw", (int(fault), headers, '{"error": {"message": "injected"}}')
        if first and fault == "hang":
            return "hang", self.hang_s
        if first and fault == "drop":
            return "drop", None
        if fault == "echo_401":
            return "raw", (401, {}, json.dumps({"error": f"bad key: {authorization}"}))
        if fault == "flaky" and turn == 0 and self.seen[key] % 2 == 0:
            return "json", self.completion("", 0, "", body)
        if fault == "malformed" or (first and fault == "malformed_once"):
            return "raw", (200, {}, '{"id": "x", "choices": [{"message": ')
        return "json", self.completion(instruction, turn, fault, body)

    def completion(self, instruction: str, turn: int, fault: str, body: dict) -> dict[str, Any]:
        plan = self.turns.get(instruction, [{"content": "I cannot help with that."}])
        extra = fault in ("unknown_tool", "wrong_types", "unparsable")
        if extra and turn == 0:
            step = plan[0] if "calls" in plan[0] else {"calls": [("calculator", {"x": 1})]}
            name, args = step["calls"][0]
            if fault == "unknown_tool":
                calls = [("no_such_tool", json.dumps(args))]
            elif fault == "wrong_types":
                calls = [(name, json.dumps({k: [v] for k, v in args.items()}))]
            else:
                calls = [(name, "{not json")]
        else:
            step = plan[min(turn - extra, len(plan) - 1)]
            # Arguments are a value, or the exact JSON text to send (hostile_turns).
            calls = [
                (n, a if isinstance(a, str) else json.dumps(a)) for n, a in step.get("calls", [])
            ]
        message: dict[str, Any] = {"role": "assistant", "content": step.get("content")}
        if calls and fault == "hermes":
            message["content"] = "Let me check.\n" + "".join(
                f'<tool_call>{{"name": "{n}", "arguments": {a}}}</tool_call>' for n, a in calls
            )
        elif calls and fault == "bare_json":
            n, a = calls[0]
            message["content"] = f'{{"name": "{n}", "arguments": {a}}}'
        elif calls:
            message["content"] = None
            message["tool_calls"] = [
                {"id": f"x{i}", "type": "function", "function": {"name": n, "arguments": a}}
                for i, (n, a) in enumerate(calls)
            ]
        prompt = sum(len(str(m.get("content") or "")) for m in body["messages"]) // 4 + 1
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": 7, "total_tokens": prompt + 7},
        }


async def _read_request(reader: asyncio.StreamReader) -> tuple[dict[str, str], bytes] | None:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return headers, body


def _response(status: int, headers: dict[str, str], text: str) -> bytes:
    data = text.encode()
    lines = [f"HTTP/1.1 {status} X", "Content-Type: application/json"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    lines.append(f"Content-Length: {len(data)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


def make_handler(plans: Plans):
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await serve_connection(reader, writer)
        except asyncio.CancelledError:
            return  # the server is stopping: end quietly (a cancelled handler logs an error)
        finally:
            writer.close()

    async def serve_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            try:
                headers, raw = await _read_request(reader)
            except (asyncio.IncompleteReadError, ConnectionError):
                return
            plans.authorizations.add(headers.get("authorization", ""))
            body = json.loads(raw)
            if body["messages"] == PROBE:  # a run asking before any task: always answered
                plans.probes += 1
                writer.write(_response(200, {}, json.dumps(plans.completion("", 0, "", body))))
                await writer.drain()
                continue
            plans.requests += 1
            plans.bodies.append(body)
            kind, value = plans.reply(body, headers.get("authorization", ""))
            if kind == "hang":
                await asyncio.sleep(value)
                return
            if kind == "drop":
                return
            if kind == "json":
                writer.write(_response(200, {}, json.dumps(value)))
            else:
                writer.write(_response(*value))
            await writer.drain()

    return handle


class FakeOpenAI:
    """`with FakeOpenAI(plans) as server:` then point a client at `server.base_url`."""

    def __init__(self, plans: Plans) -> None:
        self.plans = plans
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        start = asyncio.start_server(make_handler(self.plans), "127.0.0.1", 0)
        self.server = asyncio.run_coroutine_threadsafe(start, self.loop).result()
        port = self.server.sockets[0].getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        return self

    def __exit__(self, *exc: object) -> None:
        async def stop() -> None:
            self.server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        if not self.thread.is_alive():
            self.loop.close()


@contextmanager
def fake_openai(plans: Plans) -> Iterator[FakeOpenAI]:
    with FakeOpenAI(plans) as server:
        yield server


def gold_turns(domain: str, num_tasks: int, seed: int = 0) -> dict[str, list[dict[str, Any]]]:
    """Plans that play each task's gold actions, one call per turn, then its gold final message:
    the tasks `generate --domains <domain> --num-tasks N --seed S` samples (default profiles)."""
    from toolscale.core.registry import get_domain
    from toolscale.economics.preferences import DEFAULT_SPREAD
    from toolscale.sample.tasks import build_task, with_preference

    turns = {}
    for index in range(num_tasks):
        item = with_preference(build_task(get_domain(domain), seed, index, 15.0), DEFAULT_SPREAD)
        steps: list[dict[str, Any]] = [
            {"calls": [(a["name"], a["arguments"])]} for a in item.task.gold_actions
        ]
        steps.append({"content": item.final_message})
        turns[question(item)] = steps
    return turns


# JSON text that is valid JSON but that Python's parser refuses, sent as a call's raw arguments.
UNREADABLE_ARGUMENTS = ('{"x": ' + "9" * 5000 + "}", "[" * 100_000 + "]" * 100_000)


def hostile_turns(domain: str, num_tasks: int, seed: int = 0) -> dict[str, list[dict[str, Any]]]:
    """Plans that answer each task (as `gold_turns` samples them) with hostile arguments: a first
    turn calling every tool the task offers with one hostile value per parameter (rotated by task
    and parameter through `toolscale.check.hostile`'s catalogue: empty, huge, negative, 2**63,
    NaN,
    odd unicode, ...), a second sending the arithmetic bombs to the calculator and (odd tasks)
    argument texts Python's JSON parser refuses, then a final message that gives up (so each
    attempt is rejected)."""
    from toolscale.check.hostile import BOMBS, schema_base, values
    from toolscale.core.registry import get_domain
    from toolscale.economics.preferences import DEFAULT_SPREAD
    from toolscale.sample.tasks import build_task, with_preference
    from toolscale.sandbox.execute import argument_errors

    toolkit = get_domain(domain).toolkit
    schemas = {s["function"]["name"]: s["function"] for s in toolkit.schemas()}
    turns = {}
    for index in range(num_tasks):
        task = with_preference(build_task(get_domain(domain), seed, index, 15.0), DEFAULT_SPREAD)
        offered = task.task.tool_names()
        calls = []
        for name in offered:
            arguments = schema_base(toolkit, name)
            for position, (param, prop) in enumerate(
                schemas[name]["parameters"]["properties"].items()
            ):
                catalogue = [v for _, v in values(prop)]
                if catalogue:
                    trial = {**arguments, param: catalogue[(index + position) % len(catalogue)]}
                    if not argument_errors(toolkit, name, trial):
                        arguments = trial
            calls.append((name, arguments))
        arithmetic = [n for n in ("calculator", "calculate") if n in offered]
        second = [(n, {"expression": bomb}) for n in arithmetic for bomb in BOMBS]
        if index % 2:  # the others' attempts get past the format check to later stages
            second += [(offered[0], text) for text in UNREADABLE_ARGUMENTS]
        turns[question(task)] = [
            {"calls": calls},
            {"calls": second},
            {"content": "I could not complete this request."},
        ]
    return turns


def main() -> None:
    """Serve plans from a JSON file in this process; print the port, then serve until killed."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--plans", required=True)
    args = parser.parse_args()
    with open(args.plans) as handle:
        turns = json.load(handle)
    plans = Plans({k: [_as_turn(t) for t in v] for k, v in turns.items()})

    async def serve() -> None:
        server = await asyncio.start_server(make_handler(plans), "127.0.0.1", 0, backlog=1024)
        print(server.sockets[0].getsockname()[1], flush=True)
        await server.serve_forever()

    asyncio.run(serve())


def _as_turn(turn: dict[str, Any]) -> dict[str, Any]:
    if "calls" in turn:
        return {"calls": [tuple(c) for c in turn["calls"]]}
    return turn


if __name__ == "__main__":
    main()
