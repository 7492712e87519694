"""A loopback OpenAI-compatible server that plays both sides of a tau2-bench run of exported
toolscale tasks, from the tasks themselves, so tau2's own CLI can run them offline.

The user simulator (a request without tools) names its task in its first message and ends the
conversation (tau2's `###STOP###`) at its second turn. The agent (a request with tools) reads the
task from that message and, by the model it is asked for: `gold` makes the task's gold calls one
per turn and then states its required facts; `lazy` makes no call and states the facts.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

STOP = "###STOP###"  # tau2's user simulator's end of conversation
OPENING = "Please help me with task "


def reply(tasks: dict[str, dict[str, Any]], body: dict[str, Any]) -> dict[str, Any]:
    """The chat message the scripted side answers `body` with."""
    messages = body["messages"]
    if not body.get("tools"):  # the user simulator
        instructions = messages[0]["content"]
        said = sum(m["role"] == "assistant" for m in messages)  # the user's own turns, flipped
        if said:
            return {"role": "assistant", "content": STOP}
        task = next(t for t in tasks.values() if t["reason"] in instructions)
        return {"role": "assistant", "content": OPENING + task["id"]}
    opening = next(m["content"] for m in messages if m["role"] == "user")
    task = tasks[opening.removeprefix(OPENING).strip()]
    done = sum(m["role"] == "tool" for m in messages)
    actions = task["actions"] if body["model"].endswith("gold") else []
    if done < len(actions):
        action = actions[done]
        call = {"name": action["name"], "arguments": json.dumps(action["arguments"])}
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": f"call_{done}", "type": "function", "function": call}],
        }
    return {"role": "assistant", "content": "Done. " + " ".join(task["facts"])}


def tasks_of(exported: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The exported tasks (tasks.json items) as the server reads them, by id."""
    return {
        item["id"]: {
            "id": item["id"],
            "reason": item["user_scenario"]["instructions"]["reason_for_call"],
            "actions": item["evaluation_criteria"]["actions"],
            "facts": item["evaluation_criteria"]["communicate_info"],
        }
        for item in exported
    }


@contextmanager
def scripted_llm(exported: list[dict[str, Any]]) -> Iterator[str]:
    """Serve on a free loopback port; yields the base URL (`.../v1`)."""
    tasks = tasks_of(exported)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            answer = {
                "id": "chatcmpl-scripted",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [{"index": 0, "message": reply(tasks, body), "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
