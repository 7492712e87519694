"""Every registered stateful domain's gold paths: no identical call made twice (a question answered
by the record's finder reuses the identifying call), sampled twice per intent kind."""

from __future__ import annotations

import random

import pytest

from toolscale.core import registry
from toolscale.core.contract import canonical_json
from toolscale.kit import StatefulDomain

STATEFUL = sorted(
    name for name, cls in registry.registered().items() if issubclass(cls, StatefulDomain)
)


@pytest.mark.parametrize("name", STATEFUL)
def test_no_gold_path_repeats_a_call(name: str) -> None:
    domain = registry.domain_class(name)()
    assert domain.templates
    for kind in domain.templates:
        for index in range(2):
            rng = random.Random(f"{name}:{kind}:{index}")
            spec = domain.sample_named(rng, 0, index, kind)
            calls = [canonical_json([a.name, a.arguments]) for a in spec.gold_actions]
            assert len(calls) == len(set(calls)), (kind, calls)
