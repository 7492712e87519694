"""`toolscale check-domain`: each kind of domain bug, in a probe domain registered through
TOOLSCALE_DOMAINS, is named by its one line and exits 1; a sound domain passes, hostile arguments
included; a tool that crashes only on a hostile value is named by the fuzzer's one line; a bad
name exits 2; the bundled domains pass with `--strict` and the fuzzer."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.fixtures.ledger.registration import with_ledger
from tests.fixtures.probes import registered
from toolscale.check.check_domain import DomainReport, Finding

pytestmark = pytest.mark.slow


def check(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscale", "check-domain", name, "--tasks", "8", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=registered(name) if name.startswith("probe") else with_ledger(),
    )


def problems(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("problem ")]


def test_a_sound_domain_added_through_the_environment_passes():
    result = check("probe")
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "domain 'probe': 8 tasks checked, no problem"


ADD = "template add, tasks 0, 1, 2 and 5 more"  # where the probes' problems are found


@pytest.mark.parametrize(
    ("probe", "line"),
    [
        (
            "probe_sampler",
            "problem [sample] tasks 0, 1, 2 and 5 more: ValueError: the probe sampler is broken "
            "on purpose",
        ),
        (
            "probe_gold",
            f"problem [gold] {ADD}: GoldError: gold action add failed: Error: amount must be at "
            "least 1",
        ),
        (
            "probe_crash",
            f"problem [crash] {ADD}: tool add_checked crashed in the alternative_1 attempt: "
            "Error: add_checked failed internally (KeyError)",
        ),
        (
            "probe_read",
            f"problem [gold] {ADD}: GoldError: READ tool read changed the state; a READ tool "
            "must leave it as it is (declare the tool WRITE, or stop it writing)",
        ),
        (
            "probe_alt_read",
            f"problem [read_purity] {ADD}: READ tool read changed the state in route alternative_1",
        ),
        (
            "probe_noop",
            f"problem [do_nothing] {ADD}: its gold route writes, yet an attempt with no call "
            "that says the gold final message verifies: the gold writes leave the state as it was",
        ),
        (
            "probe_random",
            f"problem [determinism] {ADD}: sampling the same (seed, index) twice gives two "
            "different tasks; draw every choice from the rng argument",
        ),
    ],
)
def test_each_broken_probe_is_named_by_its_line_and_exits_1(probe, line):
    # Without the fuzzer: its hostile calls would also meet these bugs (tested below).
    result = check(probe, "--fuzz", "0")
    assert result.returncode == 1, result.stderr
    found = problems(result)
    assert len(found) == 1 and found[0].startswith(line), result.stderr
    last = result.stderr.splitlines()[-1]
    assert last.startswith(f"error: domain '{probe}' has 1 problems (above)"), last
    assert result.stderr.splitlines()[0] == found[0]  # the problem first, then any traceback


def test_a_crash_prints_the_tools_own_traceback():
    result = check("probe_crash", "--fuzz", "0")
    assert "Traceback (most recent call last)" in result.stderr
    assert "KeyError: 'countr'" in result.stderr
    assert 'self.state["countr"] += amount' in result.stderr


def test_docstring_problems_are_one_line_per_tool():
    result = check("probe_args")
    assert result.returncode == 1
    assert problems(result) == [
        "problem [schemas] tool ArgsTools.add: Cannot generate JSON schema for add because the "
        "docstring has no description for the argument 'amount'; add a line for it under Args:",
        "problem [schemas] tool read: Args: documents verbose, not a parameter",
    ]


def test_unreachable_tools_warn_and_fail_only_when_strict():
    # The faulty fixture's hang/spin/stuck/crash/die/read tools are in no route of its tasks (and
    # broken on purpose, which the fuzzer would report).
    result = check("faulty", "--fuzz", "0")
    assert result.returncode == 0, result.stderr
    warned = [line for line in result.stderr.splitlines() if line.startswith("warning ")]
    assert [w.split()[3] for w in warned] == ["crash", "die", "hang", "read", "spin", "stuck"]
    assert warned[0] == (
        "warning [reachable] tool crash is in no gold or alternative route of 8 tasks (seed 0); "
        "add tasks that need it"
    )
    strict = check("faulty", "--strict", "--fuzz", "0")
    assert strict.returncode == 1
    assert len(problems(strict)) == 6


def test_a_bad_name_is_one_error_line_and_exit_2():
    result = check("nope")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        line for line in result.stderr.splitlines() if line.startswith("error: unknown domain")
    ]


def test_a_tool_that_crashes_on_an_empty_string_is_one_fuzz_line_and_exit_1():
    result = check("probe_empty")
    assert result.returncode == 1, result.stderr
    # 19 calls: the 15 hostile strings, and 4 variants of the route's "Ada" (lower case,
    # padded, cut, doubled; no digit to change); only "" crashes it.
    assert problems(result) == [
        "problem [fuzz] tool initial crashed on name='' (empty): Error: initial failed "
        "internally (IndexError) (1 of 19 hostile calls)"
    ]
    assert "return name[0].upper()" in result.stderr  # the tool's own traceback
    assert check("probe_empty", "--fuzz", "0").returncode == 0  # no route sends ""


def test_the_fuzzer_is_deterministic_and_a_bad_count_is_exit_2():
    assert problems(check("probe_empty", "--seed", "3")) == problems(check("probe_empty"))
    bad = check("probe", "--fuzz", "-1")
    assert bad.returncode == 2
    assert bad.stderr.strip() == "error: --fuzz must be 0 (no fuzzing) or more (got -1)"


@pytest.mark.parametrize(
    ("name", "checked"),
    [
        ("railway", "50 tasks and 42 templates x 5"),
        ("bank", "50 tasks and 33 templates x 5"),
        ("math", "50 tasks"),  # no named templates: drawn by weight only
        ("knowledge", "50 tasks"),
    ],
)
def test_bundled_domains_have_no_problem_even_strict_and_fuzzed(name, checked):
    result = check(name, "--tasks", "50", "--strict")
    assert result.returncode == 0, result.stderr
    assert (
        result.stderr.strip().splitlines()[-1] == f"domain '{name}': {checked} checked, no problem"
    )


def test_a_broken_template_of_weight_1_in_1000_is_named():
    # Drawn by weight only (today's check), 50 tasks never reach it: no problem is found.
    weighted = check("ledger_rare", "--tasks", "50", "--per-template", "0", "--fuzz", "0")
    assert weighted.returncode == 0 and "rare_broken" not in problems(weighted), weighted.stderr
    named = check("ledger_rare", "--tasks", "50", "--fuzz", "0")
    assert named.returncode == 1
    # One problem: its five draws fail alike, and nothing else about it is reported.
    assert problems(named) == [
        "problem [sample] template rare_broken, draws 0, 1, 2 and 2 more: ToolError: amount "
        "must be at least 1"
    ]
    assert (
        "checked each of 3 templates 5 times by name; rare ones (under one draw expected in 50 "
        "tasks by weight): rare_broken (0.1% of draws)"
    ) in named.stderr.splitlines()


def test_identical_findings_on_several_tasks_are_one_line():
    report = DomainReport(
        "x",
        5,
        (
            Finding("gold", "boom", 0),
            Finding("gold", "boom", 1),
            Finding("gold", "other", 2),
            *(Finding("gold", "boom", i) for i in range(3, 6)),
            Finding("reachable", "tool t unused", warning=True),
        ),
    )
    assert report.lines() == [
        "problem [gold] tasks 0, 1, 3 and 2 more: boom",
        "problem [gold] task 2: other",
        "warning [reachable] tool t unused",
    ]
    assert len(report.problems) == 6 and len(report.warnings) == 1


def test_follow_on_findings_of_a_task_and_of_a_template_are_left_out():
    report = DomainReport(
        "x",
        4,
        (
            Finding("crash", "tool t crashed", 0, template="a"),
            Finding("verify", "gold does not verify", 0, template="a"),  # same task: follows
            Finding("parrot", "parrot verifies", 1, template="a"),  # same template: follows
            Finding("sample", "ToolError: no", 2, template="a", named=True),  # a's first check
            Finding("sample", "ToolError: other", 3, template="a", named=True),
            Finding("parrot", "not drawn", warning=True, template="a"),  # a fails to sample
            Finding("parrot", "parrot verifies", 2, template="b"),
            Finding("do_nothing", "nothing verifies", 3, template="b"),  # b's first check
        ),
        per_template=2,
        templates=("a", "b"),
        rare=(("b", 0.01),),
    )
    assert report.lines() == [
        "problem [sample] template a, draw 2: ToolError: no; 4 later findings on it left out",
        "problem [sample] template a, draw 3: ToolError: other",  # every message is shown
        "problem [do_nothing] template b, task 3: nothing verifies; 1 later finding on it left out",
    ]
    assert report.checked() == "4 tasks and 2 templates x 2"
    assert report.coverage() == (
        "checked each of 2 templates 2 times by name; rare ones (under one draw expected in 4 "
        "tasks by weight): b (1.0% of draws)"
    )
