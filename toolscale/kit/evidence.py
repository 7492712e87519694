"""Evidence only tools give: which required facts of a stateful task a caller cannot supply, and
the rule that an attempt states them only after a look-up showed them.

A stateful task is judged on its final state and on the facts its final message states. A task
that leaves the state as it is (a question, a refusal, a hand-off) is judged on the facts alone,
so a fact the caller said, or a phrase any agent says ("I cannot do that", "standard",
"transferring you to a human agent"), proves nothing: a policy that parrots the caller passes.
Here an *evidence fact* is a required fact that appears in nothing the caller says or can say
(`user_words`) nor in `STOCK_PHRASES`. Two rules use it:

- sampling (`check_evidence`, through `sample_task`): a read-only question has an evidence fact
  that a result of its gold route shows (a status, an amount, a date, an id a write made, or a
  sum the calculator made of them) and that, unless it is a number, the policy text does not
  hold either (a tier name the policy lists is guessable; a number is judged by the rule below).
  A refusal or a hand-off states its reason, which may be a word the policy holds ("frozen"):
  what establishes it is its look-up, so its gold route must make one;
- verifying (`missing_evidence`, a `KitDomain`'s `evidence_problems`): an attempt at a task
  with evidence facts, or at any task that leaves the state as it is, must be backed by a
  look-up: a successful call's result shows one of its evidence facts, or the attempt made one
  of the gold route's READ calls (same tool and arguments: the look-up that establishes them,
  tau2's action check, which lets an agent add up two balances in its head), or another
  look-up whose result holds the record that call reads (`read_made`: the caller's bookings
  list holds the booking get_booking shows). A failed call,
  whose error may echo a guessed value, backs nothing. So a refusal is correct only after the
  look-up that justifies it, even when it says the right words and its reason is a word any
  agent could guess, and a list of guesses never passes a numeric fact.

The same look-ups say when a fact is *established* (`established`, a `KitDomain`'s hook of the
required-facts check): an agent message that states a fact counts from the point the calls made
so far show it (or, for a fact no result shows as it is, such as a sum, once every READ call of
the gold route was made); a fact the caller gave is established from the start, except on a
task that changes nothing, which is answered only after a look-up.

`parrot` is the no-look-up attempt both rules defeat (check-domain and the gaming suite play it).
"""

from __future__ import annotations

import json
from typing import Any

from toolscale.core.contract import UserScenario, fact_stated

STOCK_PHRASES = (
    "I cannot do that.",
    "I'm sorry, that is not possible under our policy.",
    "Your request will go through standard processing.",
    "Transferring you to a human agent.",
    "YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.",
)


def user_words(scenario: UserScenario) -> list[str]:
    """Everything the caller says or may say: the opening, why they call (the goal and its
    conditions), every detail they can tell when asked (or misread), and the request they
    change to."""
    return [
        scenario.opening,
        scenario.reason_for_call,
        *scenario.known.values(),
        *scenario.stated.values(),
        scenario.known_info,
        scenario.change,
        *scenario.wrong.values(),
    ]


def parrot(scenario: UserScenario | None, instruction: str) -> str:
    """A final message that looks nothing up: the caller's words repeated, then stock phrases."""
    said = user_words(scenario) if scenario is not None else [instruction]
    return " ".join([*said, *STOCK_PHRASES])


def evidence_facts(facts: list[str], scenario: UserScenario | None, policy: str = "") -> list[str]:
    """The required facts that neither the caller's words, the stock phrases nor `policy` state.
    Without a scenario (a single-instruction task) no fact is evidence."""
    if scenario is None:
        return []
    guessable = " ".join([*user_words(scenario), *STOCK_PHRASES, policy])
    return [fact for fact in facts if not fact_stated(fact, guessable)]


def _is_number(fact: str) -> bool:
    try:
        float(fact.replace(",", ""))
    except ValueError:
        return False
    return True


def missing_evidence(
    facts: list[str],
    scenario: UserScenario | None,
    looked: list[tuple[str, Any, str]],
    gold_reads: list[tuple[str, Any]],
) -> list[str]:
    """Why an attempt's facts are not backed by a look-up, or nothing. `looked` holds the
    attempt's successful calls as (tool, parsed arguments, result); `gold_reads` the READ calls
    of the gold route as (tool, arguments). A task that leaves the state as it is (its caller
    accepts no change: a question, a refusal, a hand-off) needs the look-up even when every
    fact is a word anyone could guess."""
    evidence = evidence_facts(facts, scenario)
    read_only = scenario is not None and not scenario.accepts_changes and bool(gold_reads)
    if not evidence and not read_only:
        return []
    if any(fact_stated(f, out) for f in evidence for _, _, out in looked):
        return []
    if any(read_made(read, looked) for read in gold_reads):
        return []
    if not evidence:
        return [
            "no look-up establishes the answer: a task that changes nothing (a question, a "
            "refusal, a hand-off) is answered only after the look-up that establishes it"
        ]
    return [
        f"no look-up backs {evidence}: a fact the caller did not give must come from a tool "
        "result or from the look-up that establishes it"
    ]


def established(
    fact: str,
    scenario: UserScenario | None,
    looked: list[tuple[str, Any, str]],
    gold_reads: list[tuple[str, Any]],
) -> bool:
    """Whether the successful calls so far (`looked`, as in `missing_evidence`) establish
    `fact` (module docstring)."""
    evidence = bool(evidence_facts([fact], scenario))
    read_only = scenario is not None and not scenario.accepts_changes and bool(gold_reads)
    if not evidence and not read_only:
        return True
    if any(fact_stated(fact, out) for _, _, out in looked):
        return True
    return bool(gold_reads) and all(read_made(read, looked) for read in gold_reads)


def _leaves(text: str) -> set[str]:
    """The string values of a JSON result, casefolded (nothing for a text that is no JSON)."""
    try:
        stack = [json.loads(text)]
    except (ValueError, RecursionError):
        return set()
    found: set[str] = set()
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack += item.values()
        elif isinstance(item, list):
            stack += item
        elif isinstance(item, str):
            found.add(item.casefold())
    return found


def read_made(read: tuple[str, Any], looked: list[tuple[str, Any, str]]) -> bool:
    """Whether the successful calls `looked` made the gold READ `read` (tool, arguments), or
    another look-up whose result holds the record it reads: every value it is keyed by
    ("RS42866"; "CU5961") is a value of that result (the caller's reservations list holds
    RS42866 as get_reservation would show it)."""
    if any((name, arguments) == read for name, arguments, _ in looked):
        return True
    keys = read[1].values() if isinstance(read[1], dict) else ()
    values = {v.casefold() for v in keys if isinstance(v, str) and v.strip()}
    return bool(values) and any(values <= _leaves(out) for _, _, out in looked)


def check_evidence(
    name: str,
    facts: list[str],
    scenario: UserScenario,
    outputs: list[str],
    writes: bool,
    policy: str,
    error: type[Exception],
    asks: bool = True,
) -> None:
    """The sampling rule (module docstring) on a draft whose gold calls returned `outputs`;
    raises `error` (the kit's KitError) naming the template when it is broken. `asks`: the
    request is a question (else a refusal or hand-off, established by its look-up, which the
    caller of this function checks the gold route makes)."""
    if writes or not asks:
        return  # the state proves the work, or the look-up the verifier requires does
    strict = [
        fact
        for fact in evidence_facts(facts, scenario)
        if _is_number(fact) or not fact_stated(fact, policy)
    ]
    if not any(fact_stated(fact, out) for fact in strict for out in outputs):
        raise error(
            f"template {name}: a read-only task needs a required fact only a look-up gives (a "
            f"status, an amount, a date, an id the caller does not know); of its facts {facts}, "
            "none is both in a result of its gold route and unsaid by the caller, the policy "
            "and stock phrases"
        )
