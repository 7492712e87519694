"""Ask every endpoint of a run one short question before any task is played.

`generate`, `synthesize` and `toolscale-train evaluate` call `probe` on the endpoint pools of
every role of their run (teacher, user simulator, judge, proposer, solver), once, before the
output folder is touched: a role none of whose URLs answers, or whose every URL refuses the key
or the model, is a ConfigError (one line, exit 2), not a dataset of attempts that all failed at
stage "teacher". A pool with at least one answering URL passes: routing around a dead one is the
pool's job (`toolscale.llm.endpoints`). The probe is one request of a few tokens with at most one
retry, sent outside the run's ledgers, budget and request cache, so run.json counts only the
run's own requests. Each distinct (URL, model) is asked once, whatever the roles sharing it.

It does not check that the model can play the task (call tools, follow the format): an endpoint
that answers but plays badly is data, judged per attempt.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace

from toolscale.core.errors import ConfigError
from toolscale.llm.client import ChatClient, TeacherFailure
from toolscale.llm.endpoints import EndpointPool
from toolscale.llm.ledger import EndpointRejected

PROBE = [{"role": "user", "content": "Reply with the word ready."}]
# The roles whose endpoint is the run's main one: its flags have no role prefix.
_MAIN = ("teacher", "proposer")


def flags_of(role: str) -> str:
    """The command-line flags that set a role's endpoint ("--user-base-url and --user-model")."""
    prefix = "" if role in _MAIN else f"{role}-"
    return f"--{prefix}base-url and --{prefix}model"


async def _ask(client: ChatClient) -> str | None:
    """None when the client's endpoint answers the probe, else why it did not."""
    policy = replace(client.policy, max_retries=min(client.policy.max_retries, 1), base_delay_s=0.2)
    asker = client.apart(policy)
    try:
        await asker.send(PROBE, [], {"max_tokens": 8, "temperature": 0.0})
    except TeacherFailure as failure:
        url = client.endpoint.base_url
        return f"the endpoint {url} does not answer ({failure.reason})"
    except EndpointRejected as exc:
        return str(exc)
    finally:
        await asker.close()
    return None


async def probe(pools: Mapping[str, EndpointPool], flags: Mapping[str, str] | None = None) -> None:
    """Ask each distinct endpoint of `pools` (role -> pool) once, all at once; raise ConfigError
    for the first role (in `pools`' order) none of whose URLs answers. `flags` names, by role,
    the options that set its endpoint (default `flags_of(role)`), for the message."""
    clients: dict[tuple[str, str], ChatClient] = {}
    for pool in pools.values():
        for member in pool.members:
            endpoint = member.client.endpoint
            clients.setdefault((endpoint.base_url.rstrip("/"), endpoint.model), member.client)
    reasons = dict(zip(clients, await asyncio.gather(*map(_ask, clients.values())), strict=True))
    for role, pool in pools.items():
        found = [
            reasons[(m.client.endpoint.base_url.rstrip("/"), m.client.endpoint.model)]
            for m in pool.members
        ]
        if all(found):
            hint = (flags or {}).get(role, flags_of(role))
            raise ConfigError(
                f"{role}: {found[0]}; start the server, or check {hint} (nothing was written)"
            )
