"""The reference teacher: plays the gold actions through the sandbox, no LLM involved.

With `detours` it also plays correct but less efficient routes, so efficiency varies between the
traces of one task: the gold route with its first READ call repeated (a redundant lookup), and
every alternative route the domain offers (e.g. an expert or code_executor instead of the
calculator); for a stateful task also the mistakes an agent makes (toolscale.play.mistakes: a
guessed id, a loop of look-ups, a forbidden tool, the write left out or made twice, the answer
without its look-ups), some recovered and correct, some rejected with their stage. A
conversational task's route is played as a conversation with the scripted user
(toolscale.dialogue.conversation: the agent asks for what only the user knows, confirms each write,
and goes through the user's behaviour: reads a misread detail back, says why it asks, asks for a
detail held back, follows a change of mind, offers what the user turns down), so its traces
have several user turns. A route that ends by asking an expert answers
with the expert's reply, as an agent relying on it would (one that hands the question to an
expert, `toolscale.tools.delegate`, ends with nothing to add: the reply is the answer); a
simulated expert can be wrong, and the verifier then rejects the attempt at the outcome stage
like any other wrong attempt.

When the task's preference profile asks for a JSON answer with a confidence, every route answers
`{"answer": ..., "confidence": ...}` (confidence 1.0 for its own answer, the expert's stated
accuracy when it relays an expert), and `--detours` adds `plain_answer`: the gold route answered
in plain text, which ignores the profile, so the preference label differs between the two.
"""

from __future__ import annotations

from toolscale.core.contract import Action, ToolKind, committed_answer
from toolscale.core.records import Task
from toolscale.core.registry import get_domain
from toolscale.core.task_state import state_json
from toolscale.economics.preferences import as_json_answer
from toolscale.play.mistakes import mistakes
from toolscale.play.transcript import Transcript, close_draft, open_draft, record_call
from toolscale.sample.tasks import SampledTask, gold_turns, said
from toolscale.sandbox.execute import CallOutcome
from toolscale.sandbox.pool import SandboxPool
from toolscale.tools.experts import EXPERTS, reply_confidence

GOLD_ROUTES = ("gold", "plain_answer")  # the variants that play the gold actions as they are


def _routes(item: SampledTask, detours: bool) -> list[tuple[str, list[Action], str | None]]:
    """(variant, actions, final message) of every route played; a final message of None relays
    the last call's answer, and the gold route's is the task's own."""
    task = item.task
    gold = [Action(a["name"], a["arguments"]) for a in task.gold_actions]
    routes: list[tuple[str, list[Action], str | None]] = [("gold", gold, item.final_message)]
    if not detours:
        return routes
    specs = get_domain(task.domain).toolkit.specs()
    reads = [i for i, a in enumerate(gold) if specs[a.name].kind is ToolKind.READ]
    if reads:
        i = reads[0]
        repeated = [*gold[: i + 1], gold[i], *gold[i + 1 :]]
        routes.append(("repeat_read", repeated, item.final_message))
    routes += [
        (f"alternative_{n}", route, item.final_message)
        for n, route in enumerate(item.alternatives, 1)
    ]
    routes += [(r.name, r.actions, r.final_message) for r in item.routes]
    if task.user_scenario is not None:  # a stateful task: an agent's real mistakes too
        routes += [(name, actions, item.final_message) for name, actions in mistakes(task, specs)]
    if task.preference.answer_format == "json_confidence":
        routes.append(("plain_answer", gold, item.final_message))
    return routes


def relayed(reply: str) -> str:
    """What an agent relying on an expert answers: the reply's answer statement alone (the
    whole reply when it states none, e.g. "cannot answer")."""
    answer = committed_answer(reply)
    return reply if answer is None else f"The answer is {answer}."


def final_message(task: Task, variant: str, text: str, expert: str | None) -> str:
    """The route's answer, in the format the task's preference asks for (except `plain_answer`);
    relaying an expert, the confidence is the one its reply states."""
    if task.preference.answer_format != "json_confidence" or variant == "plain_answer":
        return text
    confidence = 1.0
    if expert in EXPERTS:
        confidence = reply_confidence(text) or EXPERTS[expert].default[1]
    return as_json_answer(relayed(text) if expert else text, confidence)


def route_draft(
    task: Task,
    variant: str,
    attempt: int,
    actions: list[Action],
    final: str | None,
    outcomes: list[CallOutcome],
    final_hash: str,
) -> Transcript:
    """The attempt of one route whose calls gave `outcomes`: each call and result (with the
    scripted user's turns of a conversational task), then the final message. A route that ends
    by asking an expert, and has no final message of its own, answers with the expert's answer."""
    toolkit = get_domain(task.domain).toolkit
    specs = toolkit.specs()
    draft = open_draft(task, variant, attempt)
    done = iter(zip(actions, outcomes, strict=True))
    for step in gold_turns(task, actions, specs):
        if step.call is None:  # a question or confirmation, answered by the user
            draft.messages += said(step)
            continue
        action, outcome = next(done)
        record_call(draft, task, action.name, action.arguments, outcome)
    text, expert = final or "", None
    if actions and specs[actions[-1].name].kind is ToolKind.MODEL:
        text, expert = outcomes[-1].output, outcomes[-1].model
    text = final_message(task, variant, text, expert)
    if expert and task.preference.answer_format != "json_confidence":
        # A reply handed over is the answer itself (`toolscale.core.handed`): nothing to add.
        text = "" if actions[-1].name in toolkit.answer_tools else relayed(text)
    return close_draft(draft, text, final_hash, task)


class ReferenceTeacher:
    name = "reference"

    def __init__(self, detours: bool = False) -> None:
        self.detours = detours

    async def attempts(self, item: SampledTask, pool: SandboxPool) -> list[Transcript]:
        task = item.task
        # The gold route ran when the task was built (on a fresh copy of the same state, in a
        # worker, as a replay runs it): its outcomes and final hash are the task's own; so did
        # every route the oracle played (`item.route_outcomes`), and the rest run here: every
        # attempt is grounded, so the verifier does not replay it again (`Rubric`).
        built = len(item.gold_outcomes) == len(task.gold_actions) and task.expected_state_hash
        drafts = []
        for attempt, (variant, actions, final) in enumerate(_routes(item, self.detours)):
            if built and variant in GOLD_ROUTES:
                outcomes, final_hash = item.gold_outcomes, task.expected_state_hash
            elif variant in item.route_outcomes:
                outcomes, final_hash = item.route_outcomes[variant]
            else:  # known in advance: one request (a fresh state, every call, the final hash)
                calls = [(a.name, a.arguments) for a in actions]
                own = item.own_routes  # the sampler's routes (with its mistakes)
                outcomes, final_hash = await pool.replay(task.domain, state_json(task), calls, own)
            draft = route_draft(task, variant, attempt, actions, final, outcomes, final_hash)
            draft.grounded = True
            drafts.append(draft)
        return drafts
