"""`toolscale view`: the list's counts equal counts taken by hand from the rows, a trace page shows
every tool call, text from a trace never becomes markup, the server writes nothing and serves
nothing but the output's pages, `--html` pages open from the file system with the same content,
and bad input is one `error:` line with exit 2. The browser tests drive a real headless Chromium
(Debian's `chromium`; `.ci/run` installs it) and are skipped, saying why, without it."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.publishing_data import copy, rows, shared
from tests.test_cli_errors import assert_one_line_error, cli
from toolscale.core.errors import ConfigError
from toolscale.view.app import write_html
from toolscale.view.index import OutputIndex
from toolscale.view.pages import Pages
from toolscale.view.server import make_server

HOSTILE = '<script>document.title="pwned"</script><img src=x onerror="document.title=\'pwned\'">'
INTENT = "block a lost card <b>now</b>"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on PATH (apt-get install chromium; .ci/run does)"
)


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.tag, self.attrs, self.children, self.parts = tag, attrs, [], []

    def text(self) -> str:
        return "".join(p if isinstance(p, str) else p.text() for p in self.parts)

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def find(self, **attrs: str) -> list[Node]:
        return [n for n in self.walk() if all(n.attrs.get(k) == v for k, v in attrs.items())]


class Tree(HTMLParser):
    """A DOM from HTML text (the DOM Chromium dumps, or a page as served)."""

    VOID = frozenset({"meta", "img", "br", "hr", "input", "link", "source", "area", "wbr"})

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.stack = [self.root]
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        self.stack[-1].parts.append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data):
        self.stack[-1].parts.append(data)


def dom(html: str) -> Node:
    return Tree(html).root


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    """The shared publishing output, one of whose traces holds markup in its user turn, a tool
    output and its final answer."""
    root = copy(shared(), tmp_path_factory.mktemp("view") / "out")
    path = sorted((root / "data" / "traces").glob("bank-*.parquet"))[0]
    table = pq.read_table(path)
    found = table.to_pylist()
    row = next(r for r in found if r["tool_calls"])
    row["final_answer"] = HOSTILE
    row["tool_calls"][0]["output"] = HOSTILE
    for message in row["messages"]:
        if message["role"] == "user" or message.get("tool_call_id") == row["tool_calls"][0]["id"]:
            message["content"] = HOSTILE + message["content"]
    pq.write_table(pa.Table.from_pylist(found, schema=table.schema), path)
    for path in sorted((root / "data" / "tasks").glob("bank-*.parquet")):
        tasks = pq.read_table(path)
        found = tasks.to_pylist()
        for task in found:
            if task["id"] == row["task_id"]:  # as a synthesized task carries it
                task["provenance"] = json.dumps({"intent": INTENT})
        pq.write_table(pa.Table.from_pylist(found, schema=tasks.schema), path)
    (root / "hostile.txt").write_text(row["id"])
    return root


def hostile_id(out: Path) -> str:
    return (out / "hostile.txt").read_text()


def expected_counts(out: Path, chosen: dict[str, str]) -> tuple[int, dict[str, Counter]]:
    """By hand from full rows: attempts matching `chosen`, and per filter the values' counts
    given the other filters."""
    tasks = {t["id"]: t for t in rows(out, "tasks")}
    attempts = []
    for row in rows(out, "traces") + rows(out, "rejected"):
        task = tasks[row["task_id"]]
        attempts.append(
            {
                "domain": row["domain"],
                "template": task["template"],
                "variant": row["variant"],
                "status": "verified" if row["verified"] else row["failure_stage"],
                "profile": row["preference_profile"],
                "schedule": task["price_schedule"],
                "intent": json.loads(task["provenance"]).get("intent", ""),
            }
        )

    def keeps(a: dict[str, str], skip: str | None) -> bool:
        return all(a[k] == v for k, v in chosen.items() if k != skip)

    counts = {f: Counter(a[f] for a in attempts if keeps(a, f) and a[f]) for f in attempts[0]}
    return sum(keeps(a, None) for a in attempts), counts


def shown_counts(page: Node) -> tuple[int, dict[str, dict[str, int]]]:
    total = int(page.find(id="total")[0].text())
    counts: dict[str, dict[str, int]] = {}
    for link in page.walk():
        if link.tag == "a" and "data-facet" in link.attrs:
            n = next(c for c in link.children if c.attrs.get("class") == "n")
            if int(n.text()):
                counts.setdefault(link.attrs["data-facet"], {})[link.attrs["data-value"]] = int(
                    n.text()
                )
    return total, counts


def assert_counts(page: Node, out: Path, chosen: dict[str, str]) -> None:
    total, counts = expected_counts(out, chosen)
    assert shown_counts(page) == (total, {f: dict(c) for f, c in counts.items() if c})


def assert_every_call_shown(page: Node, trace: dict) -> None:
    assert trace["tool_calls"], "the known trace has tool calls"
    for call in trace["tool_calls"]:
        (shown,) = page.find(**{"data-call-id": call["id"]})
        parts = {n.attrs.get("class"): n.text() for n in shown.walk()}
        assert parts["name"] == call["name"]
        args = parts["args"]
        for name, value in json.loads(call["arguments"]).items():
            if isinstance(value, str) and "\n" in value:  # code: shown as its lines
                assert f"{name}:\n" in args and all(line in args for line in value.splitlines())
            else:
                assert f"{name}: {json.dumps(value, ensure_ascii=False)}" in args
        assert call["output"] in parts["output"]
        assert page.find(**{"data-call": call["id"]})


def assert_inert(page: Node) -> None:
    """The hostile text is on the page as text and made no element."""
    assert [n.tag for n in page.walk() if n.tag in ("script", "img")] == []
    assert HOSTILE in page.find(id="final-answer")[0].text()
    assert "pwned" not in next(n for n in page.walk() if n.tag == "title").text()


def tasks_attempts(out: Path) -> list[dict]:
    task_id = next(r["task_id"] for r in rows(out, "traces") if r["id"] == hostile_id(out))
    return [r for r in rows(out, "traces") + rows(out, "rejected") if r["task_id"] == task_id]


def most_called(out: Path) -> dict:
    return max(rows(out, "traces"), key=lambda r: (len(r["tool_calls"]), r["id"]))


def test_the_index_counts_equal_counts_by_hand(out):
    pages = Pages(OutputIndex(out))
    for chosen in ({}, {"domain": "bank"}, {"domain": "math", "status": "verified"}):
        assert_counts(dom(pages.list_page(chosen)), out, chosen)
    assert expected_counts(out, {})[1]["intent"] == {INTENT: len(tasks_attempts(out))}
    page = pages.list_page({"intent": INTENT})
    assert "<b>now</b>" not in page
    assert_counts(dom(page), out, {"intent": INTENT})


def test_a_trace_page_shows_every_call_and_no_markup_from_the_trace(out):
    pages = Pages(OutputIndex(out))
    coded = next(
        r
        for r in rows(out, "traces")
        if any("\n" in json.loads(c["arguments"]).get("code", "") for c in r["tool_calls"])
    )
    for trace in (most_called(out), coded):
        assert_every_call_shown(dom(pages.trace_page(trace["id"])), trace)
    hostile = pages.trace_page(hostile_id(out))
    assert_inert(dom(hostile))
    assert "&lt;script&gt;" in hostile


def test_a_task_page_shows_its_gold_actions_and_the_oracle_table(out):
    pages = Pages(OutputIndex(out))
    for task in rows(out, "tasks"):
        page = dom(pages.task_page(task["id"]))
        gold = json.loads(task["gold_actions"])
        (table,) = page.find(id="gold")
        assert len([n for n in table.walk() if n.tag == "tr"]) == 1 + len(gold)
        oracle = page.find(id="oracle")
        assert bool(oracle) == bool(task["route_table"])
        if oracle:
            cells = oracle[0].text()
            assert all(route["name"] in cells for route in task["route_table"])


def test_the_server_serves_only_the_outputs_pages_and_writes_nothing(out):
    server = make_server(Pages(OutputIndex(out)), "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with urllib.request.urlopen(base) as answer:
            assert "script-src 'sha256-" in answer.headers["Content-Security-Policy"]
        for path, code in (("../../etc/passwd", 404), ("trace-nope.html", 404), ("run.json", 404)):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(base + path)
            assert refused.value.code == code
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(base, data=b"x", method="POST"))
        assert refused.value.code == 405
    finally:
        server.shutdown()
        server.server_close()


def test_bad_input_is_one_error_line_and_exit_2(out, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    result = cli("view", str(tmp_path))
    assert_one_line_error(result, "is not a toolscale output")
    assert result.returncode == 2
    result = cli("view", "nobody-here/no-such-dataset")
    assert_one_line_error(result, "could not be read from the Hub")
    assert result.returncode == 2
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = cli("view", str(out), "--port", str(taken.getsockname()[1]))
    assert_one_line_error(result, "is in use", "--port")
    assert result.returncode == 2
    result = cli("view", str(out), "--html", str(out / "site"))
    assert_one_line_error(result, "inside the output")
    assert result.returncode == 2 and not (out / "site").exists()


def test_a_host_that_is_not_loopback_is_served_with_a_warning(out):
    args = [sys.executable, "-m", "toolscale", "view", str(out), "--host", "0.0.0.0", "--port", "0"]
    process = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr.readline().startswith("warning: serving on 0.0.0.0, not loopback")
        assert process.stderr.readline().startswith("serving ")
    finally:
        process.terminate()
        process.wait(timeout=30)


def chromium_dom(url: str, profile: Path) -> Node:
    args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
    args += [f"--user-data-dir={profile}", "--dump-dom", url]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return dom(done.stdout)


@pytest.fixture(scope="module")
def served(out):
    """`toolscale view OUT --port 0` as a user runs it; yields its base URL."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    args = [sys.executable, "-m", "toolscale", "view", str(out), "--port", "0"]
    process = subprocess.Popen(args, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stderr.readline()
        assert line.startswith("serving "), line
        yield line.split(" at ")[1].split()[0]
    finally:
        process.terminate()
        process.wait(timeout=30)


@needs_chromium
def test_in_chromium_the_list_counts_the_calls_and_no_trace_markup_runs(out, served, tmp_path):
    for chosen in ({}, {"domain": "math"}, {"domain": "bank", "status": "verified"}):
        query = urlencode(chosen)
        assert_counts(chromium_dom(f"{served}index.html?{query}", tmp_path), out, chosen)
    trace = most_called(out)
    assert_every_call_shown(chromium_dom(f"{served}trace-{trace['id']}.html", tmp_path), trace)
    page = chromium_dom(f"{served}trace-{hostile_id(out)}.html", tmp_path)
    assert_inert(page)


@pytest.mark.slow
@needs_chromium
def test_in_chromium_html_pages_open_from_the_file_system_with_the_same_content(
    out, served, tmp_path
):
    result = cli("view", str(out), "--html", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    site = (tmp_path / "site").as_uri()
    for chosen in ({}, {"domain": "knowledge", "profile": "cheap"}, {"intent": INTENT}):
        query = urlencode(chosen)
        static = chromium_dom(f"{site}/index.html?{query}", tmp_path / "a")
        assert_counts(static, out, chosen)
        assert shown_counts(static) == shown_counts(
            chromium_dom(f"{served}index.html?{query}", tmp_path / "b")
        )
    trace = most_called(out)
    assert_every_call_shown(chromium_dom(f"{site}/trace-{trace['id']}.html", tmp_path / "a"), trace)
    assert_inert(chromium_dom(f"{site}/trace-{hostile_id(out)}.html", tmp_path / "a"))


def test_templates_are_grouped_by_domain_and_folded_unless_chosen(out):
    pages = Pages(OutputIndex(out))
    tasks = rows(out, "tasks")
    domains = sorted({t["domain"] for t in tasks})
    by_hand = {d: sorted({t["template"] for t in tasks if t["domain"] == d}) for d in domains}
    page = dom(pages.list_page({}))
    groups = [n for n in page.walk() if n.tag == "details" and n.attrs.get("class") == "group"]
    shown = {}
    for group in groups:
        summary = next(c for c in group.children if c.tag == "summary")
        links = [c.attrs["data-value"] for c in group.children if c.tag == "a"]
        shown[summary.parts[0].strip()] = links
        assert "open" not in group.attrs  # nothing chosen: every group folded
    assert shown == by_hand
    (fold,) = page.find(**{"data-facet-name": "template"})
    assert fold.tag == "details" and "open" not in fold.attrs
    chosen = dom(pages.list_page({"domain": "bank"}))
    opened = [
        next(c for c in g.children if c.tag == "summary").parts[0].strip()
        for g in chosen.walk()
        if g.tag == "details" and g.attrs.get("class") == "group" and "open" in g.attrs
    ]
    assert opened == ["bank"]  # the chosen domain's templates, unfolded


MEASURE = """<script>
const over = [];
for (const box of document.querySelectorAll(".scroll, section, aside, main")) {
  if (box.scrollWidth > box.clientWidth + 1) over.push(box.tagName + "." + box.className);
}
if (document.documentElement.scrollWidth > innerWidth + 1) over.push("page");
document.body.setAttribute("data-overflow", over.join(",") || "none");
</script>"""


@needs_chromium
@pytest.mark.parametrize("width", [1400, 800])
def test_in_chromium_no_column_runs_past_the_page(out, served, tmp_path, width):
    trace = most_called(out)
    for path in ("index.html?domain=bank", f"trace-{trace['id']}.html"):
        html = urllib.request.urlopen(served + path).read().decode()
        # measured without the policy that blocks this script
        html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
        page = tmp_path / f"{width}.html"
        page.write_text(html.replace("</body>", MEASURE + "</body>"))
        args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
        args += [f"--user-data-dir={tmp_path / 'p'}", f"--window-size={width},1000"]
        done = subprocess.run([*args, "--dump-dom", page.as_uri()], capture_output=True,
                              text=True, timeout=120)  # fmt: skip
        (body,) = [n for n in dom(done.stdout).walk() if n.tag == "body"]
        assert body.attrs.get("data-overflow") == "none", (path, width)


def test_a_port_out_of_range_is_a_config_error_not_a_crash(out):
    # the socket module raises OverflowError for it, which no `except OSError` catches
    for port in (65536, 99999, -1):
        with pytest.raises(ConfigError, match=f"--port {port} is not a port"):
            make_server(Pages(OutputIndex(out)), "127.0.0.1", port)


def test_html_refuses_a_folder_of_other_files_and_rewrites_its_own_site(out, tmp_path):
    index = OutputIndex(out)
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "sft.jsonl").write_text("{}\n")
    with pytest.raises(ConfigError, match=r"holds files that are not view pages \(sft\.jsonl\)"):
        write_html(index, theirs)
    assert [p.name for p in theirs.iterdir()] == ["sft.jsonl"]
    site = tmp_path / "site"
    first = write_html(index, site)
    assert write_html(index, site) == first == len(list(site.iterdir()))
    assert first == 1 + len(index.tasks) + len(index.attempts)
