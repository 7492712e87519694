"""The mistake detours of stateful tasks: built from the gold route by hand-checkable rules, and
judged by the verifier (a recovered mistake verifies, a skipped write or a missing look-up is
rejected at the outcome stage)."""

from __future__ import annotations

from toolscale.core.contract import Action
from toolscale.play.mistakes import mistyped


def test_a_mistyped_id_changes_one_character() -> None:
    assert mistyped("BK4292") == "BK4293"
    assert mistyped("BK4299") == "BK4290"
    assert mistyped("ana@example.com") == "aana@example.com"
    assert Action("get", {"id": mistyped("A7")}) == Action("get", {"id": "A8"})


def test_detours_of_a_stateful_run_are_judged_by_their_outcome(tmp_path) -> None:
    import pyarrow.parquet as pq

    from toolscale.config.generate import GenerateConfig
    from toolscale.pipeline.generate import generate

    out = tmp_path / "out"
    generate(GenerateConfig(domains=["bank", "railway"], num_tasks=24, out=out, detours=True))
    stages: dict[str, set] = {}
    for config in ("traces", "rejected"):
        for shard in (out / "data" / config).glob("*.parquet"):
            for row in pq.read_table(shard, columns=["variant", "failure_stage"]).to_pylist():
                stages.setdefault(row["variant"], set()).add(row["failure_stage"])
    assert stages["guessed_id"] == stages["lookup_loop"] == {None}  # recovered: correct
    assert stages["write_skipped"] == {"outcome"} and stages["no_lookup"] == {"outcome"}
    assert stages["gold"] == {None}


def test_every_mistake_variant_is_declared_so_the_card_counts_it_a_detour(tmp_path) -> None:
    from toolscale.core.registry import get_domain
    from toolscale.play.mistakes import VARIANTS, mistakes
    from toolscale.sample.tasks import build_task
    from toolscale.stats.variants import kind

    for name in ("bank", "railway"):
        domain = get_domain(name)
        for index in range(12):
            task = build_task(domain, 0, index, 15.0).task
            for variant, _ in mistakes(task, domain.toolkit.specs()):
                assert variant in VARIANTS and kind(variant, {}) == "detour"


def test_a_schedule_headline_keeps_its_parentheses_whole() -> None:
    from toolscale.stats.economics import headline

    assert headline("self-hosted experts (cheaper, slower), a search index") == (
        "self-hosted experts (cheaper, slower)"
    )
    assert headline("hosted APIs at 2025 list prices: a GPT-5-class expert") == (
        "hosted APIs at 2025 list prices"
    )
