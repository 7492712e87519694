"""The orchestra domain (ToolOrchestra's interface): a call names an expert and never writes its
input; the reply of `answer` is the final answer when the policy adds nothing, for the reference
teacher, an LLM teacher and a GRPO rollout alike; a message of the policy's own replaces it."""

from __future__ import annotations

import json
import re
from collections import Counter

import datasets
import pytest

from domains.knowledge.tools import KnowledgeTools
from domains.math.tools import MathTools
from domains.orchestra import OrchestraDomain
from tests.trainer.test_rollout_judge import Scripted, comparable, environment_for, policy_rollout
from toolscale.config.generate import GenerateConfig
from toolscale.core.contract import canonical_json, item_rng
from toolscale.core.handed import handed_answer
from toolscale.core.records import Task, ToolCall
from toolscale.judge.rewards import RewardConfig
from toolscale.judge.rubric import Rubric
from toolscale.pipeline.generate import generate
from toolscale.play.openai_teacher import OpenAITeacher
from toolscale.play.transcript import NO_ANSWER
from toolscale.sample.odds import route_odds
from toolscale.sample.worlds import WorldStore
from toolscale.sandbox.bridge import SandboxThread
from toolscale.stats.routes import route_class
from toolscale.tools.experts import EXPERTS
from toolscale.tools.skills import PROFILES

DOMAIN = OrchestraDomain()
SPECS = [DOMAIN.sample(item_rng("orchestra", 0, i), 0, i) for i in range(60)]


@pytest.fixture(scope="module")
def sandbox():
    thread = SandboxThread(workers=1, call_timeout_s=5.0)
    yield thread
    thread.close()


@pytest.fixture(scope="module")
def output(tmp_path_factory):
    out = tmp_path_factory.mktemp("orchestra") / "data"
    generate(GenerateConfig(domains=["orchestra"], num_tasks=12, out=out, detours=True))
    tasks = datasets.load_dataset(str(out), "tasks", split="train")
    traces = datasets.load_dataset(str(out), "traces", split="train")
    return out, tasks, traces


def test_every_task_offers_answer_alone_and_names_an_expert_in_every_route() -> None:
    sources = Counter("corpus" in s.initial_state for s in SPECS)
    assert sources[True] > 10 and sources[False] > 10  # world questions and math problems
    for spec in SPECS:
        assert spec.initial_state["question"] == spec.instruction
        routes = [spec.gold_actions, *(r.actions for r in spec.routes)]
        assert sorted(a[0].arguments["expert"] for a in routes) == sorted(EXPERTS)
        assert all(len(a) == 1 and a[0].name == "answer" for a in routes)
        assert set(DOMAIN.toolkit.specs()) == {"answer"}


def test_an_answer_call_replies_as_ask_expert_does_to_the_users_question() -> None:
    """Handing over the question is asking it whole: the same reply, the same odds."""
    for spec in SPECS[:20]:
        state = json.loads(json.dumps(spec.initial_state))
        asker = KnowledgeTools(state) if "corpus" in state else MathTools(state)
        kit = DOMAIN.toolkit(state)
        odds = route_odds(kit, spec.routes)
        for route in spec.routes:
            alias = route.actions[0].arguments["expert"]
            assert kit.answer(alias) == asker.ask_expert(alias, spec.instruction)
            read = asker.known(spec.instruction)
            assert read is not None
            assert odds[route.name] == PROFILES[alias].p_correct(read.kind, read.difficulty)


def test_the_reply_handed_over_is_the_answer_only_after_a_call_that_ran() -> None:
    def call(name: str, status: str = "ok") -> ToolCall:
        return ToolCall(id="c", name=name, arguments="{}", output="The answer is 7.",
                        status=status, cost=0.0, latency_ms=0.0)  # fmt: skip

    assert handed_answer("", [call("answer")], ("answer",)) == "The answer is 7."
    assert handed_answer("  ", [call("answer", "error")], ("answer",)) == "  "
    assert handed_answer("", [call("ask_expert")], ("answer",)) == ""  # relaying is writing
    assert handed_answer("It is 8.", [call("answer")], ("answer",)) == "It is 8."
    assert route_class([("answer", '{"expert": "expert-2"}')]) == "expert-2"


def test_the_task_prompt_prices_answer_by_its_model_and_asks_no_format(output) -> None:
    _, tasks, _ = output
    for row in tasks:
        assert "| answer | the chosen model's tokens (below) |" in row["system_prompt"]
        # a format of the user's own would be the policy's to write; one tool: nothing to avoid
        assert json.loads(row["preference"])["profile"] in ("none", "hurry", "cheap")


def test_a_message_of_its_own_is_told_the_statement_the_judge_reads(output) -> None:
    # A capable agent wrote a bare "$7893.99" after the reply, as the prompt let it, and lost a
    # right answer: the prompt must name, for a message of its own, a form the judge reads.
    _, tasks, _ = output
    for row in tasks:
        prompt = row["system_prompt"] + json.dumps(json.loads(row["tools"]))
        forms = re.findall(r'as \\?"(The answer is X\.)\\?"', prompt)
        assert len(forms) == 2, "policy and tool description each name the statement"
        expected = row["expected_answer"]
        for form in forms:
            assert DOMAIN.check_answer(expected, form.replace("X", expected))
        assert not DOMAIN.check_answer(expected, f"${expected}")


def test_gold_traces_end_with_nothing_and_the_experts_reply_is_the_answer(output) -> None:
    _, tasks, traces = output
    gold = [t for t in traces if t["variant"] == "gold"]
    assert len(gold) == len(tasks) and all(t["verified"] for t in gold)
    for trace in gold:
        final = trace["messages"][-1]
        assert final["role"] == "assistant" and final["content"] == ""
        assert trace["final_answer"] == trace["tool_calls"][-1]["output"]
        assert trace["final_answer"].startswith("The answer is ")


def _played(output, sandbox, turns):
    out, tasks, _ = output
    row = dict(tasks[0])
    task = Task.from_row(row, WorldStore.of_output(out))
    teacher = OpenAITeacher(Scripted(turns), name="scripted")
    played = sandbox.run(teacher.play(task, sandbox.pool, 0))
    return row, sandbox.run(Rubric(RewardConfig()).trace(task, played, "scripted", sandbox.pool))


def _answer_turn(alias: str) -> dict:
    call = {"name": "answer", "arguments": canonical_json({"expert": alias})}
    return {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c0", "type": "function", "function": call}]}  # fmt: skip


def test_an_llm_teacher_and_a_rollout_that_hand_over_are_judged_alike(output, sandbox) -> None:
    out, tasks, traces = output
    gold = next(t for t in traces if t["task_id"] == tasks[0]["id"] and t["variant"] == "gold")
    alias = json.loads(gold["tool_calls"][0]["arguments"])["expert"]
    turns = [_answer_turn(alias), {"role": "assistant", "content": "", "tool_calls": None}]
    row, generated = _played(output, sandbox, turns)
    assert generated.verified and generated.final_answer == gold["final_answer"]

    environment = environment_for(row, sandbox, WorldStore.of_output(out))
    rolled = environment._judge(policy_rollout(environment, turns), 5, RewardConfig())
    assert rolled.verified and comparable(rolled) == comparable(generated)


def test_a_message_of_the_policys_own_replaces_the_reply(output, sandbox) -> None:
    _, tasks, traces = output
    gold = next(t for t in traces if t["task_id"] == tasks[0]["id"] and t["variant"] == "gold")
    alias = json.loads(gold["tool_calls"][0]["arguments"])["expert"]
    own = "I could not find out."
    turns = [_answer_turn(alias), {"role": "assistant", "content": own, "tool_calls": None}]
    _, trace = _played(output, sandbox, turns)
    assert trace.final_answer == own and not trace.verified
    assert trace.failure_stage == "outcome"
    # Nothing handed over and nothing said: no answer at all.
    _, silent = _played(output, sandbox, [{"role": "assistant", "content": "", "tool_calls": None}])
    assert (silent.failure_stage, silent.failure_reasons) == ("teacher", [NO_ANSWER])
