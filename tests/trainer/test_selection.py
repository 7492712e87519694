"""SFT's default data is one best trace per task (its expected route's where it has routes, else
the gold route, never a deliberate detour), and `--max_tasks` draws its tasks from every domain
in proportion, the same ones every time."""

from __future__ import annotations

import json
from collections import Counter
from types import SimpleNamespace

import pytest

from toolscale.config.generate import GenerateConfig
from toolscale.core.errors import ConfigError
from toolscale.pipeline.generate import generate
from trainer.data import grpo_rows, sft_rows
from trainer.selection import best_traces, label_variant, quotas, stratified, variant_filter

pytestmark = pytest.mark.slow  # module fixtures that generate and play outputs


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """3 math and 3 bank tasks with every detour: 28 verified traces, 6 of them gold, 3 bank
    `guessed_id` (a mistyped id, then the right one: verified, deliberately degraded) and 3 bank
    `repeat_read` (the number of other detours depends on which tasks are drawn)."""
    out = tmp_path_factory.mktemp("selection") / "data"
    generate(GenerateConfig(domains=["math", "bank"], num_tasks=6, out=out, detours=True))
    return out


def options(dataset, **kw):
    base = dict(
        dataset=str(dataset),
        dataset_config=None,
        domains="all",
        templates="all",
        difficulties="all",
        max_tasks=None,
    )
    return SimpleNamespace(**{**base, **kw})


def called(row) -> list[str]:
    """The tools a conversation calls (a user's answer shows as an `ask_user` call: left out)."""
    calls = [c["function"]["name"] for m in row["messages"] for c in m["tool_calls"] or []]
    return [name for name in calls if name != "ask_user"]


def trace_calls(trace) -> list[str]:
    return [c["name"] for c in trace["tool_calls"]]


def test_default_sft_data_is_the_expected_route_else_the_gold_trace_of_each_task(dataset):
    """A math task's label is its `expected_route`'s trace (the gold one when that is the oracle
    route, none when it answered wrong on this draw); a bank task's is its gold trace."""
    import datasets

    traces = datasets.load_dataset(str(dataset), "traces", split="train")
    tasks = {t["id"]: t for t in datasets.load_dataset(str(dataset), "tasks", split="train")}
    variants = Counter(traces["variant"])
    assert variants["gold"] == 6 and variants["guessed_id"] == 3 == variants["repeat_read"]
    assert len(traces) > 6 + 3 + 3  # other detours too: each must be left out
    said: list[str] = []
    rows = sft_rows(options(dataset), say=said.append)  # --variants best, the default

    def label(task: dict) -> str:
        if task["expected_route"] in ("", task["oracle_route"]):
            return "gold"
        return task["expected_route"]

    chosen = [t for t in traces if t["variant"] == label(tasks[t["task_id"]])]
    math = [t for t in tasks.values() if t["domain"] == "math"]
    assert all(t["expected_route"] for t in math)
    assert len(rows) == len(chosen) >= 3  # one per task whose label verified: every bank task
    # In file order, each conversation is its task's label trace: the same calls.
    assert [called(r) for r in rows] == [trace_calls(t) for t in chosen]
    # and it says what it took, by variant, the most frequent first
    count = sorted(Counter(t["variant"] for t in chosen).items(), key=lambda x: (-x[1], x[0]))
    parts = ", ".join(f"{name} {n}" for name, n in count)
    assert said == [f"SFT on --variants best: {len(rows)} traces ({parts}) of {len(rows)} tasks"]
    guessed = {json.dumps(trace_calls(t)) for t in traces if t["variant"] == "guessed_id"}
    assert guessed and not guessed & {json.dumps(called(r)) for r in rows}
    assert len(sft_rows(options(dataset, variants="all"))) == len(traces)
    named = sft_rows(options(dataset, variants="guessed_id,repeat_read"))
    assert len(named) == 6
    # a name no trace has: the error lists the variants there are, as export's does
    with pytest.raises(ConfigError, match=r"the traces. variants are: .*gold, guessed_id"):
        sft_rows(options(dataset, variants="bogus"))


def score(task, variant, reward, compliant=True, calls=1, cost=0.0, verified=True, id=None):
    return {
        "id": id or f"{task}-{variant}",
        "task_id": task,
        "variant": variant,
        "verified": verified,
        "preference_compliant": compliant,
        "reward_total": reward,
        "num_tool_calls": calls,
        "total_cost": cost,
    }


def test_best_trace_is_gold_else_the_best_verified_route_never_a_detour():
    traces = [
        score("A", "guessed_id", 0.9),  # 0: a detour scoring above gold: still not taken
        score("A", "gold", 0.5),  # 1
        score("B", "guessed_id", 0.9),  # 2
        score("B", "expert-1", 0.8, compliant=False),  # 3: breaks the preference
        score("B", "code_executor", 0.4),  # 4
        score("B", "calculator_retry", 0.95),  # 5: a detour by B's route table
        score("C", "lookup_loop", 0.7),  # 6: C has detours only
        score("D", "sampled", 0.6, calls=2, id="d2"),  # 7
        score("D", "sampled", 0.6, calls=1, id="d9"),  # 8: fewer calls wins the tie
        score("D", "sampled", 0.9, verified=False),  # 9: rejected
        score("E", "gold", 0.2, verified=False),  # 10: E's gold failed: its best verified
        score("E", "plain_answer", 0.9),  # 11: a format slip
        score("E", "alternative_1", 0.1),  # 12
    ]
    tables = {"B": {"calculator_retry": True, "expert-1": False, "code_executor": False}}
    assert best_traces(traces, tables) == [1, 4, 8, 12]
    # A task labelled with its expected route keeps that route's verified trace, or none.
    labels = {"A": "guessed_id", "B": "expert-1", "E": "gold"}
    assert best_traces(traces, tables, labels) == [0, 3, 8]


def test_the_label_variant_is_the_expected_route_or_gold():
    assert label_variant({"expected_route": "expert-3", "oracle_route": "expert-1"}) == "expert-3"
    assert label_variant({"expected_route": "search", "oracle_route": "search"}) == "gold"
    assert label_variant({"expected_route": "", "oracle_route": ""}) is None


def test_quotas_are_proportional_with_one_task_per_domain_at_least():
    sizes = {"bank": 80, "knowledge": 10, "math": 10}
    assert quotas(sizes, 10) == {"bank": 8, "knowledge": 1, "math": 1}
    assert quotas(sizes, 2) == {"bank": 2, "knowledge": 0, "math": 0}
    assert quotas(sizes, 3) == {"bank": 1, "knowledge": 1, "math": 1}
    assert quotas(sizes, 15) == {"bank": 12, "knowledge": 2, "math": 1}  # 1.5 each: by name
    assert quotas(sizes, 500) == sizes


def test_stratified_draw_takes_every_domain_not_the_first_rows():
    domains = ["bank"] * 80 + ["knowledge"] * 10 + ["math"] * 10
    ids = [f"task-{i}" for i in range(100)]
    drawn = stratified(domains, ids, 10)
    assert Counter(domains[i] for i in drawn) == {"bank": 8, "knowledge": 1, "math": 1}
    assert drawn == sorted(drawn) == stratified(domains, ids, 10)  # file order, deterministic
    assert drawn[:8] != list(range(8))  # a seeded draw within bank, not its first rows


def test_max_tasks_draws_grpo_and_sft_tasks_from_every_domain(dataset):
    import datasets

    two = grpo_rows(options(dataset, max_tasks=2))
    assert sorted(two["domain"]) == ["bank", "math"]
    assert list(grpo_rows(options(dataset, max_tasks=2))["id"]) == list(two["id"])
    assert Counter(grpo_rows(options(dataset, max_tasks=4))["domain"]) == {"bank": 2, "math": 2}
    rows = sft_rows(options(dataset, max_tasks=2))
    assert len(rows) == 2
    # one math conversation (a calculator, code or expert route) and one bank one
    offered = [{t["function"]["name"] for t in json.loads(r["tools"])} for r in rows]
    assert sorted("calculator" in tools for tools in offered) == [False, True]
    # With every variant: all the traces of the same two tasks GRPO draws.
    traces = datasets.load_dataset(str(dataset), "traces", split="train")
    expected = sum(t in set(two["id"]) for t in traces["task_id"])
    assert len(sft_rows(options(dataset, max_tasks=2, variants="all"))) == expected > 2


def test_variants_option_is_parsed_or_refused():
    assert variant_filter("best") == "best" and variant_filter(" all ") == "all"
    assert variant_filter("gold, expert-1") == {"gold", "expert-1"}
    with pytest.raises(ConfigError, match="--variants takes"):
        variant_filter(",")
