"""The reference teacher: plays the gold actions through the sandbox, no LLM involved.

With `detours` it also plays correct but less efficient routes, so efficiency varies between
the traces of one task: the gold route with its first READ call repeated (a redundant lookup),
and every alternative route the domain offers (e.g. an expert or code_executor instead of the
calculator). A conversational task's route is played as a conversation with the scripted user
(toolscale.play.conversation: the agent asks for what only the user knows and confirms each write),
so its traces have several user turns. A route that ends by asking an expert answers with the
expert's reply, as an agent relying on it would; a simulated expert can be wrong, and the
verifier then rejects the attempt at the outcome stage like any other wrong attempt.

When the task's preference profile asks for a JSON answer with a confidence, every route answers
`{"answer": ..., "confidence": ...}` (confidence 1.0 for its own answer, the expert's stated
accuracy when it relays an expert), and `--detours` adds `plain_answer`: the gold route answered
in plain text, which ignores the profile, so the preference label differs between the two.
"""

from __future__ import annotations

from toolscale.core.contract import Action, ToolKind
from toolscale.core.records import Task
from toolscale.core.registry import get_domain
from toolscale.core.task_state import state_json
from toolscale.play.conversation import plan_conversation
from toolscale.play.transcript import Transcript, close_draft, open_draft, record_call
from toolscale.sample.preferences import as_json_answer
from toolscale.sample.tasks import SampledTask, said
from toolscale.sandbox.pool import SandboxPool
from toolscale.tools.experts import EXPERTS

GOLD_ROUTES = ("gold", "plain_answer")  # the variants that play the gold actions as they are


def _routes(item: SampledTask, detours: bool) -> list[tuple[str, list[Action]]]:
    task = item.task
    gold = [Action(a["name"], a["arguments"]) for a in task.gold_actions]
    routes = [("gold", gold)]
    if not detours:
        return routes
    specs = get_domain(task.domain).toolkit.specs()
    reads = [i for i, a in enumerate(gold) if specs[a.name].kind is ToolKind.READ]
    if reads:
        i = reads[0]
        routes.append(("repeat_read", [*gold[: i + 1], gold[i], *gold[i + 1 :]]))
    routes += [(f"alternative_{n}", route) for n, route in enumerate(item.alternatives, 1)]
    if task.preference.answer_format == "json_confidence":
        routes.append(("plain_answer", gold))
    return routes


def final_message(task: Task, variant: str, text: str, expert: str | None) -> str:
    """The route's answer, in the format the task's preference asks for (except `plain_answer`)."""
    if task.preference.answer_format != "json_confidence" or variant == "plain_answer":
        return text
    confidence = EXPERTS[expert].accuracy if expert in EXPERTS else 1.0
    return as_json_answer(text, confidence)


class ReferenceTeacher:
    name = "reference"

    def __init__(self, detours: bool = False) -> None:
        self.detours = detours

    async def attempts(self, item: SampledTask, pool: SandboxPool) -> list[Transcript]:
        task = item.task
        specs = get_domain(task.domain).toolkit.specs()
        # The gold route ran when the task was built (on a fresh copy of the same state, in a
        # worker, as a replay runs it): its outcomes and final hash are the task's own. Each
        # attempt is still verified by its own replay.
        built = len(item.gold_outcomes) == len(task.gold_actions) and task.expected_state_hash
        drafts = []
        for attempt, (variant, actions) in enumerate(_routes(item, self.detours)):
            draft = open_draft(task, variant, attempt)
            if built and variant in GOLD_ROUTES:
                outcomes, final_hash = item.gold_outcomes, task.expected_state_hash
            else:  # known in advance: one request (a fresh state, every call, the final hash)
                calls = [(a.name, a.arguments) for a in actions]
                outcomes, final_hash = await pool.replay(task.domain, state_json(task), calls)
            done = iter(zip(actions, outcomes, strict=True))
            for step in plan_conversation(task.user_scenario, actions, specs):
                if step.call is None:  # a question or confirmation, answered by the user
                    draft.messages += said(task, step.say)
                    continue
                action, outcome = next(done)
                record_call(draft, task, action.name, action.arguments, outcome)
            final, expert = item.final_message, None
            if actions and specs[actions[-1].name].kind is ToolKind.MODEL:
                final, expert = outcomes[-1].output, outcomes[-1].model
            final = final_message(task, variant, final, expert)
            drafts.append(close_draft(draft, final, final_hash))
        return drafts
