"""Every stateful domain is written in one dialect, restaurant's: it states only what differs from
the kit's defaults (docs/kit.md).

Read from the source (ast), not from the built classes, since a restated default builds the same
class: an `Entity` whose table is its name plus "s", whose key is its name plus "_id", whose
owner key is its owner plus "_id", or whose `describe` returns its first `said` field; a `Goal`
whose tool is its name, whose weight is 3 or whose `price_noun` is its `price` in words; a rule
written as a class with no body (`rule("Name")` is one line); wordings or motives written as
`alts(...)` or as a tuple of phrases rather than one "a | b" string.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from toolscale.kit.scaffold import new_domain

ROOT = Path(__file__).resolve().parent.parent
DOMAINS = sorted(p.parent.name for p in (ROOT / "domains").glob("*/world.py"))


def _literal(node: ast.expr | None) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    if len(call.args) > position:
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _entity(call: ast.Call) -> list[str]:
    name, owner = _literal(_argument(call, 0, "name")), _literal(_argument(call, 3, "owner"))
    said, describe = _argument(call, 5, "said"), _argument(call, 7, "describe")
    found = []
    if _literal(_argument(call, 1, "table")) == f"{name}s":
        found.append(f"table {name}s")
    if _literal(_argument(call, 2, "key")) == f"{name}_id":
        found.append(f"key {name}_id")
    if owner and _literal(_argument(call, 4, "owner_key")) == f"{owner}_id":
        found.append(f"owner_key {owner}_id")
    if isinstance(said, ast.Tuple) and said.elts and isinstance(describe, ast.Lambda):
        body = describe.body
        first = describe.args.args[0].arg if describe.args.args else ""
        if (
            isinstance(body, ast.Subscript)
            and isinstance(body.value, ast.Name)
            and body.value.id == first
            and _literal(body.slice) == _literal(said.elts[0])
        ):
            found.append(f"describe by its first said field {_literal(said.elts[0])!r}")
    return [f"Entity {name!r}: {what} is the default" for what in found]


def _phrases(node: ast.expr | None) -> bool:
    """Wordings written as alts(...) or as a tuple of two or more literal phrases."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "alts":
        return True
    return (
        isinstance(node, ast.Tuple)
        and len(node.elts) > 1
        and all(isinstance(_literal(e), str) for e in node.elts)
    )


def _goal(call: ast.Call) -> list[str]:
    name, found = _literal(_argument(call, 0, "name")), []
    if _literal(_argument(call, 1, "tool")) == name:
        found.append(f"tool {name!r} is the default (the goal's name)")
    keywords = {k.arg: k.value for k in call.keywords}
    if _literal(keywords.get("weight")) == 3:
        found.append("weight 3 is the default")
    price, noun = _literal(keywords.get("price")), _literal(keywords.get("price_noun"))
    if isinstance(price, str) and noun == price.replace("_", " "):
        found.append(f"price_noun {noun!r} is the default")
    found += [f"{k} as alts() or a tuple: write one 'a | b' string" for k in ("words", "motives")
              if _phrases(keywords.get(k))]  # fmt: skip
    return [f"Goal {name!r}: {what}" for what in found]


def _bare_rule(node: ast.ClassDef) -> bool:
    """A PolicyError subclass with no body of its own (`...`, pass, a docstring, handoff)."""
    if not any(isinstance(b, ast.Name) and b.id == "PolicyError" for b in node.bases):
        return False
    for statement in node.body:
        if isinstance(statement, ast.Pass) or (
            isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        ):
            continue
        targets = statement.targets if isinstance(statement, ast.Assign) else []
        if not (len(targets) == 1 and getattr(targets[0], "id", "") == "handoff"):
            return False
    return True


def restated(source: str) -> list[str]:
    """What `source` (a domain module) restates of the kit's defaults, one line each."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and _bare_rule(node):
            problems.append(f"class {node.name}: write {node.name} = rule({node.name!r})")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            check = {"Entity": _entity, "Goal": _goal}.get(node.func.id)
            problems += [f"line {node.lineno}: {p}" for p in (check(node) if check else [])]
    return problems


def _domain_problems(folder: Path) -> list[str]:
    return [
        f"{path.relative_to(folder.parent)} {problem}"
        for path in sorted(folder.glob("*.py"))
        for problem in restated(path.read_text(encoding="utf-8"))
    ]


VERBOSE = '''
class TooLate(PolicyError): ...
class Big(PolicyError):
    """Too big."""
    handoff = True
class Custom(PolicyError):
    def __init__(self, message): super().__init__(message.upper())
ENTITIES = (
    Entity("fan", "fans", "fan_id"),
    Entity("pass", "passes", "pass_id", owner="fan", owner_key="fan_id"),
    Entity("team", said=("name",), describe=lambda r, w, p: r["name"]),
    Entity("game", owner="team", owner_key="home_team_id"),
)
GOALS = (
    Goal("refund", "refund", weight=3, price="fee", price_noun="fee", words=alts("a | b")),
    Goal("buy", "buy_tickets", weight=4, price="total", price_noun="order total",
         words=("buy {game}", "get {game}"), motives="x | y"),
)
'''


def test_restated_defaults_are_found_one_line_each() -> None:
    found = [line.split(": ", 1)[-1] for line in restated(VERBOSE)]
    assert found == [
        "write TooLate = rule('TooLate')",
        "write Big = rule('Big')",
        "Entity 'fan': table fans is the default",
        "Entity 'fan': key fan_id is the default",
        "Entity 'pass': key pass_id is the default",  # "passes" is no default
        "Entity 'pass': owner_key fan_id is the default",
        "Entity 'team': describe by its first said field 'name' is the default",
        "Goal 'refund': tool 'refund' is the default (the goal's name)",
        "Goal 'refund': weight 3 is the default",
        "Goal 'refund': price_noun 'fee' is the default",
        "Goal 'refund': words as alts() or a tuple: write one 'a | b' string",
        "Goal 'buy': words as alts() or a tuple: write one 'a | b' string",
    ]


@pytest.mark.parametrize("name", DOMAINS)
def test_a_bundled_stateful_domain_states_only_what_differs_from_the_kit(name: str) -> None:
    assert _domain_problems(ROOT / "domains" / name) == []


def test_the_scaffold_writes_the_same_dialect(tmp_path: Path) -> None:
    new_domain("library", tmp_path)
    assert _domain_problems(tmp_path / "library") == []
