"""The options of one `toolscale synthesize-domain` run, and their checks (before any request).

The endpoint options are generate's (`TeacherOptions`). Every check here runs before the output
folder is touched or a request is sent, and fails with one line saying what to write instead.
A topic becomes the domain's name (`slug`): a Python package name that shadows no module.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolscale.check.variety import DRAWN, FLOOR
from toolscale.config.option import option
from toolscale.config.run_options import RunOptions
from toolscale.config.teacher import TeacherOptions
from toolscale.config.teacher_checks import at_least, check_teacher
from toolscale.core.errors import ConfigError
from toolscale.core.registry import names
from toolscale.sandbox.guard import refusal

TEACHERS = ("openai", "local")
COMMAND = "synthesize-domain"


def _topics(text: str | None) -> tuple[str, ...]:
    return () if text is None else tuple(t.strip() for t in text.split(",") if t.strip())


def slug(topic: str) -> str:
    """The domain name of a topic: "Dental clinic" -> "dental_clinic"."""
    return "_".join(re.findall(r"[a-z0-9]+", topic.casefold()))


@dataclass(frozen=True)
class DomainGenConfig(RunOptions):
    topics: tuple[str, ...] = option(
        (), help='Topics, comma-separated ("dental clinic,parking permits").', cli_type=str | None,
        cli_default=None, parse=_topics,
    )  # fmt: skip
    topics_file: Path | None = option(None, help="A file of topics, one a line.")
    teacher: str = option("openai", help="Who writes the domains: openai or local.")
    repairs: int = option(2, help="Rounds a stage's problems go back to the model.")
    example: str = option("restaurant", help="The bundled domain shown as the example.")
    min_tools: int = option(12, help="Fewest tools an accepted domain has.")
    min_templates: int = option(8, help="Fewest task templates an accepted domain has.")
    dup_threshold: float = option(
        0.5, help="Jaccard of tool signatures at which a domain is a near-duplicate."
    )
    check_tasks: int = option(50, help="check-domain --tasks in the gate.")
    check_per_template: int = option(5, help="check-domain --per-template in the gate.")
    fuzz: int = option(48, help="check-domain --fuzz: hostile calls per tool in the gate.")
    variety_tasks: int = option(
        FLOOR.tasks,
        help="Tasks the variety gate measures (the floor's follow-ups scale with the count).",
    )
    gate_timeout_s: float = option(
        600.0, help="Seconds one sandboxed gate run may take.", flag="gate_timeout"
    )
    gate_memory_mb: int = option(4096, help="Address space per sandboxed process, in MiB.")
    seed: int = option(0, help="Seed of the tasks the gates sample.")
    temperature: float | None = option(None, help="Sampling temperature [0.7].")
    max_tokens: int | None = option(None, help="Most tokens per answer.", cli_default=8192)

    RESUME_KEYS = (
        "teacher", "repairs", "example", "min_tools", "min_templates", "dup_threshold",
        "check_tasks", "check_per_template", "fuzz", "variety_tasks", "seed", "shard",
        *TeacherOptions.TEACHER_RESUME_KEYS,
    )  # fmt: skip

    @property
    def domains(self) -> tuple[str, ...]:
        """No installed domain's code runs model-written programs here (the run driver asks);
        the generated domains have their own guard (`check_domaingen`)."""
        return ()

    def sampling_temperature(self) -> float:
        return 0.7 if self.temperature is None else self.temperature

    def resolved(self) -> dict[str, Any]:
        values = self.run_resolved("topics_file")
        values["topics"] = list(self.topics)
        values["temperature"] = self.sampling_temperature()
        values["max_tokens"] = self.effective_max_tokens(self.teacher == "local")
        values["request_timeout_s"] = self.effective_timeout_s(self.teacher == "local")
        return values


def check_name(topic: str, taken: set[str]) -> str:
    """The topic's domain name, or ConfigError when it cannot be one."""
    name = slug(topic)
    if not name or not name[0].isalpha() or keyword.iskeyword(name):
        raise ConfigError(f"topic {topic!r} gives no Python package name; start it with a letter")
    if name in taken:
        raise ConfigError(f"topic {topic!r} is a domain that already exists ({name}); rename it")
    if name in sys.stdlib_module_names or importlib.util.find_spec(name) is not None:
        raise ConfigError(
            f"topic {topic!r} would make a package {name!r} that shadows a module; rename it"
        )
    return name


def _read_topics(config: DomainGenConfig) -> tuple[str, ...]:
    topics = list(config.topics)
    if config.topics_file is not None:
        try:
            text = config.topics_file.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"--topics-file {config.topics_file}: {exc.strerror}") from None
        topics += [line.strip() for line in text.splitlines() if line.strip()]
    if not topics:
        raise ConfigError('give the topics: --topics "dental clinic,parking permits" or a file')
    return tuple(topics)


def check_domaingen(config: DomainGenConfig) -> DomainGenConfig:
    """Raise ConfigError for any option that cannot work; return the config with its topics
    (--topics, then the lines of --topics-file). Sends nothing and writes nothing."""
    topics = _read_topics(config)
    installed = set(names())
    seen: dict[str, str] = {}
    for topic in topics:
        name = check_name(topic, installed)
        if name in seen:
            raise ConfigError(f"topics {seen[name]!r} and {topic!r} name the same domain {name}")
        seen[name] = topic
    if config.teacher not in TEACHERS:
        raise ConfigError(
            f"--teacher {config.teacher!r} cannot write domains; use one of: {', '.join(TEACHERS)}"
        )
    check_teacher(config.teacher, config)
    at_least("--repairs", config.repairs, 0)
    at_least("--min-tools", config.min_tools, 1)
    at_least("--min-templates", config.min_templates, 1)
    at_least("--check-tasks", config.check_tasks, 1)
    at_least("--check-per-template", config.check_per_template, 0)
    at_least("--fuzz", config.fuzz, 0)
    at_least("--variety-tasks", config.variety_tasks, DRAWN)
    at_least("--gate-timeout", config.gate_timeout_s, 5)
    at_least("--gate-memory-mb", config.gate_memory_mb, 512)
    if not 0 < config.dup_threshold <= 1:
        raise ConfigError(f"--dup-threshold must be in (0, 1] (got {config.dup_threshold:g})")
    if config.example not in installed:
        raise ConfigError(f"--example {config.example!r} is not an installed domain")
    if config.shard is not None and config.shard.index >= len(topics):
        raise ConfigError(
            f"--shard {config.shard} would have no topic: {len(topics)} topics; run at most "
            f"{len(topics)} shards"
        )
    refused = refusal(config.isolation)  # generated code is model-written code
    if refused is not None:
        raise ConfigError(refused)
    return replace(config, topics=topics)
