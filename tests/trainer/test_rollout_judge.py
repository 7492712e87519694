"""A GRPO rollout is recorded, priced and judged exactly as a generated trace: the same messages
played by an LLM teacher and by a policy in the TRL environment give the same Trace; a rollout cut
with calls pending fails and scores below every verified trace of its task; a call TRL's loop
refuses is recorded and fails at format; a crashed tool is reported and left out of the update."""

from __future__ import annotations

import json
from typing import Any

import datasets
import pytest

from toolscale.config.generate import GenerateConfig
from toolscale.core.records import Task
from toolscale.core.registry import get_domain
from toolscale.economics.prices import text_tokens
from toolscale.judge.rewards import RewardConfig
from toolscale.judge.rubric import Rubric
from toolscale.llm.client import Completion
from toolscale.pipeline.generate import generate
from toolscale.play.openai_teacher import OpenAITeacher
from toolscale.play.rollout import PENDING
from toolscale.sample.tasks import build_task, with_preference
from toolscale.sample.worlds import WorldStore
from toolscale.sandbox.bridge import SandboxThread
from trainer.checkpoint_rollouts import play_calls
from trainer.environment import ENDED, environment_class, environment_key
from trainer.reward_functions import reward_functions

# Columns that name who played the attempt or what their model used, not what it did.
WHO = {"id", "teacher", "variant", "attempt", "teacher_prompt_tokens", "teacher_latency_ms"}
WHO |= {"teacher_completion_tokens", "teacher_cost"}


@pytest.fixture(scope="module")
def sandbox():
    thread = SandboxThread(workers=1, call_timeout_s=2.0)
    yield thread
    thread.close()


@pytest.fixture(scope="module")
def railway(tmp_path_factory):
    """A railway output (conversational tasks, gold and detour traces)."""
    out = tmp_path_factory.mktemp("railway") / "data"
    generate(GenerateConfig(domains=["railway"], num_tasks=4, out=out, detours=True))
    tasks = datasets.load_dataset(str(out), "tasks", split="train")
    traces = datasets.load_dataset(str(out), "traces", split="train")
    return out, tasks, traces


def conversational(
    railway, unless: str = "none"
) -> tuple[Task, dict[str, Any], list[dict[str, Any]], list]:
    """A task whose gold conversation asks the user something (and whose user's behaviour is not
    `unless`), its row, its gold trace's messages and every verified trace of it."""
    out, tasks, traces = railway
    store = WorldStore.of_output(out)
    for row in tasks:
        gold = [t for t in traces if t["task_id"] == row["id"] and t["variant"] == "gold"]
        if json.loads(row["user_scenario"])["behaviour"] == unless:
            continue
        if gold and sum(m["role"] == "user" for m in gold[0]["messages"]) > 1:
            task = Task.from_row(dict(row), store)
            mine = [t for t in traces if t["task_id"] == row["id"]]
            return task, dict(row), gold[0]["messages"], mine
    raise AssertionError("no conversational railway task")


def environment_for(row: dict[str, Any], sandbox: SandboxThread, worlds=None):
    cls = environment_class(environment_key(row["domain"], row["tools"]), sandbox, worlds)
    environment = cls()
    environment.reset(**row)
    return environment


class Scripted:
    """An endpoint that answers with the given assistant messages, in order."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = list(messages)

    async def complete(self, messages, tools, sampling) -> Completion:
        return Completion(self.messages.pop(0), 100, 20, 5.0, False)


def agent_turns(gold: list[dict[str, Any]], chatter: str) -> list[dict[str, Any]]:
    """The agent's messages of a gold conversation, as an LLM would send them, with `chatter`
    written before each tool call (policy text in tool-calling turns)."""
    turns = []
    for m in gold[2:]:
        if m["role"] != "assistant":
            continue
        calls = [
            {
                "id": c["id"],
                "type": "function",
                "function": {"name": c["name"], "arguments": c["arguments"]},
            }
            for c in m["tool_calls"]
        ]
        content = chatter if calls else m["content"]
        turns.append({"role": "assistant", "content": content, "tool_calls": calls or None})
    return turns


def policy_rollout(environment, turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same turns played as TRL's tool loop plays a policy: tool calls (arguments as
    objects) run through the environment's methods, and every text but the last goes to the
    user through `ask_user`."""
    completion: list[dict[str, Any]] = []
    for n, turn in enumerate(turns):
        if turn["tool_calls"]:
            calls = [
                {
                    "type": "function",
                    "function": {
                        "name": c["function"]["name"],
                        "arguments": json.loads(c["function"]["arguments"]),
                    },
                }
                for c in turn["tool_calls"]
            ]
            message = {"role": "assistant", "content": turn["content"], "tool_calls": calls}
        elif n < len(turns) - 1:
            ask = {"name": "ask_user", "arguments": {"message": turn["content"]}}
            message = {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"type": "function", "function": ask}],
            }
        else:
            completion.append({"role": "assistant", "content": turn["content"]})
            break
        completion.append(message)
        completion.extend(play_calls(environment, message))
    return completion


def comparable(trace) -> dict[str, Any]:
    return {k: v for k, v in trace.model_dump().items() if k not in WHO}


def test_a_rollout_is_judged_as_the_same_conversation_generated_by_an_llm_teacher(railway, sandbox):
    task, row, gold, _ = conversational(railway)
    worlds = WorldStore.of_output(railway[0])
    config = RewardConfig()
    turns = agent_turns(gold, chatter="Let me check that.")
    teacher = OpenAITeacher(Scripted(turns), name="scripted")
    played = sandbox.run(teacher.play(task, sandbox.pool, 0))
    generated = sandbox.run(Rubric(config).trace(task, played, "scripted", sandbox.pool))

    environment = environment_for(row, sandbox, worlds)
    rolled = environment._judge(policy_rollout(environment, turns), 321, config)

    assert generated.verified and rolled.verified
    assert comparable(rolled) == comparable(generated)  # every message, call, metric, label
    assert rolled.teacher_completion_tokens == 321  # TRL's count is kept beside
    # The policy's words in tool-calling turns are charged: the gold trace lacks them.
    gold_trace = next(t for t in railway[2] if t["task_id"] == task.id and t["variant"] == "gold")
    calling_turns = sum(1 for t in turns if t["tool_calls"])
    extra = calling_turns * text_tokens("Let me check that.")
    assert rolled.num_tokens == gold_trace["num_tokens"] + extra
    # Parallel calls are one turn; here each turn holds one call, as in the gold trace.
    assert rolled.num_turns == gold_trace["num_turns"]


def test_a_rollout_cut_with_calls_pending_fails_below_every_verified_trace(railway, sandbox):
    _task, row, gold, verified = conversational(railway)
    worlds = WorldStore.of_output(railway[0])
    turns = agent_turns(gold, chatter="")
    environment = environment_for(row, sandbox, worlds)
    # TRL stopped at max_tool_calling_iterations: the last turn's calls never ran.
    completion = policy_rollout(environment, turns)[:-1]
    last = completion[-1]
    assert last["role"] == "tool"  # the gold route's last call ran; a further call is pending
    completion.append(
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "type": "function",
                    "function": {"name": "search_trains", "arguments": {"origin": "York"}},
                }
            ],
        }
    )
    trace = environment._judge(completion, 50, RewardConfig())
    assert not trace.verified
    assert (trace.failure_stage, trace.failure_reasons) == ("teacher", [PENDING])
    assert trace.reward_total < min(t["reward_total"] for t in verified)
    # The pending call was written (charged as text) but not run (no fee, not a call).
    assert trace.num_tool_calls == sum(1 for t in turns if t["tool_calls"])


def test_a_rollout_whose_results_were_rolled_back_has_no_final_answer(railway, sandbox):
    """TRL drops tool results that would overflow max_completion_length: the calls ran (the
    state changed) and are recorded, the rollout ends on them and fails, whatever the state."""
    task, row, gold, verified = conversational(railway)
    environment = environment_for(row, sandbox, WorldStore.of_output(railway[0]))
    completion = policy_rollout(environment, agent_turns(gold, chatter=""))
    cut = completion[:-2]  # the last call's result rolled back, no answer written
    assert cut[-1]["role"] == "assistant" and cut[-1]["tool_calls"]
    trace = environment._judge(cut, 50, RewardConfig())
    assert trace.final_state_hash == task.expected_state_hash  # every gold call ran
    assert not trace.verified and trace.failure_stage == "teacher"
    assert trace.num_tool_calls == len(gold_calls(gold))
    assert trace.reward_total < min(t["reward_total"] for t in verified)


def gold_calls(gold: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for m in gold if m["role"] == "assistant" for c in m["tool_calls"]]


def test_a_call_the_tool_loop_refuses_is_recorded_priced_and_fails_at_format(railway, sandbox):
    _, row, _gold, _ = conversational(railway)
    environment = environment_for(row, sandbox, WorldStore.of_output(railway[0]))
    unknown = {"type": "function", "function": {"name": "book_everything", "arguments": {}}}
    message = {"role": "assistant", "content": "Trying.", "tool_calls": [unknown]}
    results = play_calls(environment, message)
    assert results[0]["content"] == "{'error': 'Tool book_everything not found.'}"
    assert environment.executed == ()  # it never reached the sandbox
    completion = [message, *results, {"role": "assistant", "content": "Done."}]
    trace = environment._judge(completion, 20, RewardConfig())
    assert trace.failure_stage == "format"
    assert "call_0: unknown tool 'book_everything'" in trace.failure_reasons
    assert [(c.name, c.status, c.output) for c in trace.tool_calls] == [
        ("book_everything", "error", "{'error': 'Tool book_everything not found.'}")
    ]
    assert trace.num_tool_calls == 1 and trace.calls_per_tool == {"book_everything": 1}


def test_evaluation_never_reaches_the_environments_own_methods(railway, sandbox):
    _, row, _, _ = conversational(railway)
    environment = environment_for(row, sandbox, WorldStore.of_output(railway[0]))
    call = {"type": "function", "function": {"name": "reset", "arguments": {}}}
    (result,) = play_calls(environment, {"role": "assistant", "tool_calls": [call]})
    assert result["content"] == "{'error': 'Tool reset not found.'}"
    bad = {"type": "function", "function": {"name": "ask_user", "arguments": "hello"}}
    (result,) = play_calls(environment, {"role": "assistant", "tool_calls": [bad]})
    assert "error" in result["content"]  # non-object arguments, as TRL reports them


def faulty_environment(sandbox: SandboxThread):
    domain = get_domain("faulty")
    task = with_preference(build_task(domain, 0, 0, 15.0), {"none": 1.0}).task
    return environment_for(task.to_row(), sandbox)


def call(name: str, **arguments: Any) -> dict[str, Any]:
    function = {"name": name, "arguments": arguments}
    return {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"type": "function", "function": function}],
    }


def test_a_crashing_tool_is_reported_and_left_out_of_the_update(sandbox, capsys):
    environment = faulty_environment(sandbox)
    completion = [call("crash")]
    completion += play_calls(environment, completion[0])
    completion.append({"role": "assistant", "content": "The counter is now 13."})
    (reward_outcome, *_others), _ = reward_functions(RewardConfig(), "linear")
    logged: dict[str, float] = {}
    scores = reward_outcome(
        completions=[completion], environments=[environment], log_metric=logged.__setitem__
    )
    assert scores == [None]  # no reward: TRL gives it no advantage and leaves it out of the mean
    assert logged["toolscale/excluded"] == 1.0
    assert environment.trace.failure_stage == "execution"
    assert environment.trace.tool_calls[0].status == "crash"
    assert "left out: crash crash" in capsys.readouterr().err
    (group,), _ = reward_functions(RewardConfig(), "toolorchestra")
    assert group(completions=[completion], environments=[environment]) == [None]


def test_a_call_that_times_out_is_run_again_once(sandbox):
    environment = faulty_environment(sandbox)
    output = environment.hang(seconds=3.0)  # past the 2 s limit both times
    assert [e.outcome.status for e in environment.executed] == ["timeout"]
    assert "timed out" in output and environment.excluded.startswith("hang timeout")


def test_ask_user_ends_the_conversation_as_generation_does(railway, sandbox):
    # a `change` user answers the agent's first reply, a statement too, with their new request
    _, row, _, _ = conversational(railway, unless="change")
    environment = environment_for(row, sandbox, WorldStore.of_output(railway[0]))
    assert environment.ask_user("Thanks, one moment.") == ENDED  # a statement asks nothing
    assert environment.ask_user("Could you tell me your booking id?") == ENDED  # it is over
    (first, second) = environment.executed
    assert first.reply is None and second.reply is None


def test_an_agent_going_in_circles_is_hung_up_on_and_fails(railway, sandbox):
    _, row, _, _ = conversational(railway)
    environment = environment_for(row, sandbox, WorldStore.of_output(railway[0]))
    completion: list[dict[str, Any]] = []
    for _ in range(3):
        message = call("ask_user", message="What is your date of birth?")
        completion += [message, *play_calls(environment, message)]
    assert [m["content"] for m in completion if m["role"] == "tool"][-1] == ENDED
    completion.append({"role": "assistant", "content": "Goodbye."})
    trace = environment._judge(completion, 30, RewardConfig())
    assert trace.failure_stage == "teacher"
    assert "went in circles" in trace.failure_reasons[0]


def test_an_llm_teacher_going_in_circles_is_hung_up_on_as_a_policy_is(railway, sandbox):
    task, _, _, _ = conversational(railway)
    same = {"role": "assistant", "content": "What is your date of birth?"}
    teacher = OpenAITeacher(Scripted([same] * 5), name="scripted")
    played = sandbox.run(teacher.play(task, sandbox.pool, 0))
    assert played.failure is not None and "went in circles" in played.failure[1]
    assert sum(m.role == "user" for m in played.messages) == 3  # opening + two answers
