"""How `generate` splits --num-tasks over domains, some of which hold a fixed number of tasks."""

from __future__ import annotations

from toolscale.pipeline.plan import split


def test_without_caps_it_is_the_even_split_earlier_domains_taking_the_remainder() -> None:
    for total in range(40):
        for k in range(1, 5):
            assert split(total, [None] * k) == [total // k + (i < total % k) for i in range(k)]


def test_a_capped_domain_leaves_its_unused_share_to_the_others() -> None:
    # tau2 retail (114 tasks) and airline (50): 164 plays every task once (82/82 before).
    assert split(164, [114, 50]) == [114, 50]
    assert split(7, [2, None, 1]) == [2, 4, 1]
    assert split(9, [None, 1, None]) == [4, 1, 4]


def test_more_than_every_cap_allows_gives_every_task_once() -> None:
    assert split(100, [3, 4]) == [3, 4]
    assert split(0, [3, None]) == [0, 0]
