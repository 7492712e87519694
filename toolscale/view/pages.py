"""The viewer's HTML: the list of attempts, a task page and an attempt page, from one index.

Every value a page shows comes from the output's rows, which hold model- and user-written text,
so the templates are rendered with autoescape on (nothing a trace holds becomes markup), and each
page carries a Content-Security-Policy that lets no script run but the list's own (by its hash).
The same pages serve both modes: links are relative (`index.html`, `task-ID.html`,
`trace-ID.html`), so the files `--html` writes open from the file system as the server's do. The
served list is filtered and paged by the server; the static list holds every row and filters
them in the page (`list.js`). This module does not read files (`index`) or listen (`server`).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping
from importlib.resources import files
from typing import Any
from urllib.parse import quote, urlencode

import jinja2
from markupsafe import Markup, escape

from toolscale.view.index import ATTEMPT_CONFIGS, FACETS, OutputIndex

PAGE_SIZE = 100
STATE_CHARS = 20_000  # an initial state longer than this is shown cut (the page stays small)
REWARDS: tuple[str, ...]
REWARDS = ("reward_total", "reward_outcome", "reward_efficiency", "reward_preference")
REWARDS += ("reward_group", "solved_quickly", "stated_confidence")
METRICS: tuple[str, ...]
METRICS = ("num_tool_calls", "num_turns", "gold_calls", "extra_calls", "failed_calls")
METRICS += ("repeated_calls", "cost", "total_cost", "teacher_cost", "orchestrator_cost")
METRICS += ("latency_ms", "total_latency_ms", "num_tokens", "tool_output_tokens")
METRICS += ("orchestrator_input_tokens", "orchestrator_output_tokens", "model_tool_tokens")
METRICS += ("teacher_prompt_tokens", "teacher_completion_tokens", "tool_output_chars")
PRICE_COLUMNS = ("fee", "latency_ms", "input_per_m", "output_per_m", "ms_per_token", "per_second")


def trace_href(trace_id: str) -> str:
    return f"trace-{quote(trace_id, safe='')}.html"


def task_href(task_id: str) -> str:
    return f"task-{quote(task_id, safe='')}.html"


def pretty(text: str) -> str:
    """JSON text indented for reading; any other text as it is."""
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except ValueError:
        return text


def arguments(value: str | dict[str, Any]) -> str:
    """A call's arguments (JSON text or a dict) one per line, `name: value`, with multi-line
    strings (code) shown as their lines rather than as one escaped JSON string."""
    if isinstance(value, str):
        text = value
        try:
            value = json.loads(text)
        except ValueError:
            return text
    if not isinstance(value, dict):
        return pretty_value(value)
    lines = []
    for name, item in value.items():
        if isinstance(item, str) and "\n" in item:
            lines.append(f"{name}:\n" + "\n".join(f"    {line}" for line in item.splitlines()))
        else:
            lines.append(f"{name}: {json.dumps(item, ensure_ascii=False)}")
    return "\n".join(lines)


def pretty_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)


def num(value: Any) -> str:
    """A number for reading: floats to 6 significant digits, anything else as it is."""
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def breakable(text: str) -> Markup:
    """`text` escaped, with a line-break opportunity after each `.` and `_` (a long template or
    variant name wraps at its parts, never mid-word)."""
    return Markup(re.sub(r"([._])", r"\1<wbr>", str(escape(text))))


def clipped(text: str, limit: int = STATE_CHARS) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n... ({len(text) - limit} more characters)"


class Pages:
    """Renders the pages of one output's index; `static` pages hold every list row."""

    def __init__(self, index: OutputIndex, static: bool = False) -> None:
        self.index = index
        self.static = static
        self.script = (files("toolscale.view") / "list.js").read_text(encoding="utf-8")
        digest = base64.b64encode(hashlib.sha256(self.script.encode()).digest()).decode()
        self.csp = (
            "default-src 'none'; style-src 'unsafe-inline'; "
            f"script-src 'sha256-{digest}'; base-uri 'none'; form-action 'none'"
        )
        self.env = jinja2.Environment(
            loader=jinja2.PackageLoader("toolscale.view", "templates"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.globals.update(
            trace_href=trace_href,
            task_href=task_href,
            pretty=pretty,
            arguments=arguments,
            pretty_value=pretty_value,
            num=num,
            breakable=breakable,
            csp=self.csp,
            configs=ATTEMPT_CONFIGS,
        )
        self.facets = index.facet_values()
        # Long filters, folded: templates under their domain, variants in one fold.
        self.grouped = {"template": index.by_domain("template")}
        self.folded = ("template", "variant", "intent")
        self.run_line = f"{index.root} · {len(index.tasks)} tasks, {len(index.attempts)} attempts"

    def _render(self, name: str, **context: Any) -> str:
        return self.env.get_template(name).render(**context)

    def list_page(self, query: Mapping[str, str]) -> str:
        """The list under the query's filters (`domain=...&status=...&page=N`)."""
        chosen = {k: query[k] for k in FACETS if query.get(k)}
        if self.static:
            selection = self.index.select({}, 0, len(self.index.attempts))
            pages = None
        else:
            try:
                page = max(0, int(query.get("page", "0")))
            except ValueError:
                page = 0
            selection = self.index.select(chosen, page * PAGE_SIZE, PAGE_SIZE)
            pages = self._pages(selection.chosen, page, selection.total)

        def toggle(name: str, value: str) -> str:
            params = dict(selection.chosen)
            if params.get(name) == value:
                params.pop(name)
            else:
                params[name] = value
            return "index.html" + (f"?{urlencode(params)}" if params else "")

        return self._render(
            "list.html",
            title=str(self.index.root.name),
            sel=selection,
            facets=self.facets,
            grouped=self.grouped,
            folded=self.folded,
            columns=FACETS,
            toggle=toggle,
            pages=pages,
            run_line=self.run_line,
            script=self.script if self.static else "",
        )

    @staticmethod
    def _pages(chosen: dict[str, str], page: int, total: int) -> dict[str, Any] | None:
        if total <= PAGE_SIZE:
            return None

        def at(number: int) -> str:
            return "index.html?" + urlencode({**chosen, "page": number})

        last_page = (total - 1) // PAGE_SIZE
        return {
            "first": min(total, page * PAGE_SIZE + 1),
            "last": min(total, (page + 1) * PAGE_SIZE),
            "prev": at(page - 1) if page > 0 else None,
            "next": at(page + 1) if page < last_page else None,
        }

    def trace_page(self, trace_id: str) -> str | None:
        found = self.index.trace(trace_id)
        if found is None:
            return None
        trace, config = found
        executed = {c.id: c for c in trace.tool_calls}
        outputs = {m.tool_call_id: m.content for m in trace.messages if m.role == "tool"}
        called = {c.id for m in trace.messages for c in m.tool_calls}
        return self._render(
            "trace.html",
            title=f"attempt {trace.id}",
            t=trace,
            config=config,
            executed=executed,
            outputs=outputs,
            shown=called,
            rewards=REWARDS,
            metrics=METRICS,
            attempts=self.index.attempts_of(trace.task_id),
            here=trace.id,
        )

    def task_page(self, task_id: str) -> str | None:
        found = self.index.task(task_id)
        if found is None:
            return None
        task, row = found
        state = json.dumps(task.initial_state, ensure_ascii=False)
        return self._render(
            "task.html",
            title=f"task {task.id}",
            k=task,
            state_text=clipped(
                pretty(row["initial_state"]) if task.world else pretty_value(task.initial_state)
            ),
            state_chars=len(state),
            price_columns=PRICE_COLUMNS,
            attempts=self.index.attempts_of(task.id),
            here="",
        )
