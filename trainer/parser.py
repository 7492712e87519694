"""TRL's argument parser for `toolscale-train`, whose usage mistakes are one ConfigError line.

argparse answers a missing required option or a bad value with its whole usage text (149 lines
for `sft`, TRL's fields included) and exits; transformers answers an unknown option with "Some
specified arguments are not used by the HfArgumentParser". Here each is one line that names the
option, suggests the closest known one for a misspelling, and says where the options are listed.
It does not check values toolscale gives a meaning to (`trainer.args.parse` does).
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Sequence
from typing import Any, NoReturn

from toolscale.core.errors import ConfigError

NOT_USED = "Some specified arguments are not used by the HfArgumentParser: "


def parse(command: str, types: tuple[type, ...], argv: Sequence[str]) -> tuple[Any, ...]:
    """The dataclasses `types` filled from `--config FILE` and `--key value` flags of
    `toolscale-train COMMAND`; a missing file, a missing or unknown option or a bad value is a
    ConfigError."""
    from trl import TrlParser

    listed = f"toolscale-train {command} --help lists the options"

    class Parser(TrlParser):
        def error(self, message: str) -> NoReturn:
            raise ConfigError(f"{message}; {listed}")

    # TRL types the dataclasses as a NewType of Any, which no class matches.
    parser = Parser(types)  # type: ignore[arg-type]
    try:
        return tuple(parser.parse_args_and_config(list(argv)))
    except FileNotFoundError as exc:
        raise ConfigError(
            f"no file {exc.filename}: give --config a YAML file such as "
            "trainer/configs/cpu-smoke.yaml"
        ) from None
    except ValueError as exc:
        text = str(exc)
        if not text.startswith(NOT_USED):
            raise ConfigError(text.splitlines()[0]) from None
        raise ConfigError(unknown(text, parser, listed)) from None
    except OSError as exc:
        raise ConfigError(str(exc).splitlines()[0]) from None


def unknown(text: str, parser: Any, listed: str) -> str:
    """The line for transformers' "not used" error `text`: each unknown option, with the known
    option closest to it where there is one."""
    try:
        leftover = [str(a) for a in ast.literal_eval(text[len(NOT_USED) :])]
    except (ValueError, SyntaxError):
        leftover = []
    flags = [a.split("=")[0] for a in leftover if a.startswith("-")]
    if not flags:
        return f"unexpected arguments {' '.join(leftover) or text[len(NOT_USED) :]}; {listed}"
    known = [s for action in parser._actions for s in action.option_strings]
    named = []
    for flag in flags:
        close = difflib.get_close_matches(flag, known, n=1)
        named.append(f"{flag} (did you mean {close[0]}?)" if close else flag)
    return f"unknown option {', '.join(named)}; {listed}"
