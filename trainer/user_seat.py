"""Who plays the caller of stateful tasks in GRPO and `evaluate`: an LLM user, or the scripted user.

`--user_base_url URL --user_model NAME` (the key in the variable `--user_api_key_env` names, by
default OPENAI_API_KEY) seats an LLM user simulator (`toolscale.play.usersim`, generation's
`--user llm`) behind any OpenAI-compatible endpoint; unset, the deterministic scripted user
(`toolscale.dialogue.scripted_user`) answers, offline, as before. The three options are
generation's `--user-base-url`, `--user-model`, `--user-api-key-env` (their help is read from
`toolscale.config.teacher.TeacherOptions`, declared once there). An attempt the user breaks goes
to stage "user" (`toolscale.judge.user_fault`) whoever plays it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from toolscale.config.teacher import TeacherOptions
from toolscale.config.teacher_checks import api_key
from toolscale.core.errors import ConfigError
from toolscale.judge.user_fault import STAGE
from toolscale.llm.client import ChatClient, Endpoint, RetryPolicy
from toolscale.llm.ledger import Budget, Ledger
from toolscale.play.usersim import UserSimulator

# generation's help, less its default (generation's user falls back on the teacher's endpoint)
_HELP = {f.name: f.metadata["flag"].help.split(" [")[0] for f in dataclasses.fields(TeacherOptions)}
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
USER_STAGE = STAGE  # the failure stage of an attempt the user broke


@dataclass(kw_only=True)
class UserArguments:
    """The LLM user's endpoint (all unset: the scripted user)."""

    user_base_url: str | None = field(
        default=None, metadata={"help": _HELP["user_base_url"] + "; unset: the scripted user."}
    )
    user_model: str | None = field(default=None, metadata={"help": _HELP["user_model"]})
    user_api_key_env: str = field(
        default=DEFAULT_KEY_ENV, metadata={"help": _HELP["user_api_key_env"]}
    )

    def llm_user(self) -> bool:
        """Whether these options seat an LLM user; a URL without a model, or a model without a
        URL, is a ConfigError saying what to add."""
        if (self.user_base_url is None) != (self.user_model is None):
            raise ConfigError(
                "an LLM user needs both --user_base_url and --user_model (the name the endpoint "
                "serves); give neither for the scripted user"
            )
        return self.user_base_url is not None

    def user_simulator(self, timeout_s: float = 60.0) -> UserSimulator | None:
        """The LLM user these options name, its key read now (None: the scripted user)."""
        if not self.llm_user() or self.user_base_url is None or self.user_model is None:
            return None
        endpoint = Endpoint(self.user_base_url, self.user_model, self.user_api_key_env)
        client = ChatClient(
            endpoint,
            api_key(self.user_api_key_env),
            RetryPolicy(timeout_s=timeout_s),
            Ledger(0.0, 0.0, Budget()),
        )
        return UserSimulator(client)


async def close_user(user: UserSimulator | None) -> None:
    """Close the LLM user's connections (on the loop that used them); nothing for None."""
    close = getattr(user.client, "close", None) if user is not None else None
    if close is not None:
        await close()
