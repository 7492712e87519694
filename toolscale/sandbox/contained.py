"""Start sandbox workers in bubblewrap when a model wrote a domain they may import.

`toolscale synthesize-domain` writes `model_written.json` (`MARK`) into every domain it accepts.
A pool whose run may import such a domain (any installed domain, unless the pool is told which)
and whose mark does not say `"trusted": true` starts each worker as the code executor's programs
start (`toolscale.sandbox.command`): new network, PID, IPC and UTS namespaces, a read-only view
of /usr, the interpreter and the folders on the Python path (toolscale, its libraries, the
domain), a private size-capped /tmp as the only writable place, an environment cleared to
`ENV` plus the `TOOLSCALE_*` settings, and the bootstrap's limits (address space, file size,
open files; as root a dedicated uid and a process limit). A tool that opens a socket or writes
outside /tmp then fails with the sandbox's own error (`Network is unreachable`, `Read-only file
system`), which the run reports as a crashed call. A mark is found without importing the domain.
Without a usable bubblewrap such a pool is refused (`ConfigError`), as model-written programs
are (docs/sandbox.md).
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import IO, cast

from toolscale.core.errors import ConfigError
from toolscale.core.registry import module_of, names
from toolscale.sandbox.command import ENV, argv
from toolscale.sandbox.isolation import LEVEL_ENV, dedicated_uid, found_level, problem

MARK = "model_written.json"
WORKER_MEMORY_MB = 8192  # a worker holds worlds and task states: more than one program
WORKER_CPU_S = 7 * 24 * 3600  # a worker lives as long as its run; hangs are the pool's to kill
WORKER_PROCESSES = 64
_UID_BASE, _UID_SPAN = 1_400_000_000, 400_000_000  # apart from the gate's and the programs'


def _folder(module: str) -> Path | None:
    """The folder of `module` (a package's own folder), found without importing it."""
    top, _, rest = module.partition(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or (spec.origin is None and not spec.submodule_search_locations):
        return None
    locations = list(spec.submodule_search_locations or [])
    base = Path(locations[0]) if locations else Path(cast(str, spec.origin)).parent
    return base.joinpath(*rest.split(".")) if rest else base


def mark_of(module: str) -> dict | None:
    """The model-written mark of the domain in `module` (in its folder or a package above it,
    up to its top package), or None when it has none."""
    folder = _folder(module)
    if folder is None:
        return None
    depth = module.count(".")
    for place in [folder, *folder.parents][: depth + 1]:
        path = place / MARK
        if path.is_file():
            try:
                found = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                found = {}  # an unreadable mark still marks it: not trusted
            return found if isinstance(found, dict) else {}
    return None


def untrusted(domains: Iterable[str] | None = None) -> list[str]:
    """The domains among `domains` (default: every installed one) that a model wrote and no
    person marked trusted."""
    found = []
    for name in names() if domains is None else domains:
        module = module_of(name)
        mark = mark_of(module) if module else None
        if mark is not None and mark.get("trusted") is not True:
            found.append(name)
    return found


def refuse_below_bwrap(domains: list[str]) -> None:
    if found_level() != "bwrap":
        raise ConfigError(
            f"the domains {', '.join(domains)} were written by a model (their {MARK} says so) "
            f"and their tools run only in bubblewrap, which is not usable here "
            f"({problem('bwrap')}); install bubblewrap, or, after reading the domain, mark it "
            f'trusted: "trusted": true in its {MARK} (docs/synthesize-domain.md)'
        )


def _roots() -> list[str]:
    """The folders the worker sees read-only: toolscale's and every folder on the path; one
    holding the home folder is refused (the worker would see it)."""
    roots = [str(Path(__file__).resolve().parents[2])]
    roots += [os.path.realpath(p) for p in sys.path if p and os.path.isdir(p)]
    home = os.path.realpath(os.path.expanduser("~"))
    for root in roots:
        if home == root or home.startswith(root.rstrip("/") + "/"):
            raise ConfigError(
                f"the Python path holds {root}, which contains the home folder {home}: a "
                "model-written domain's worker would see it; run from a path outside it"
            )
    return list(dict.fromkeys(roots))


def _binds(roots: list[str]) -> list[str]:
    args: list[str] = []
    for root in roots:
        parents = [str(p) for p in reversed(Path(root).parents) if str(p) != "/"]
        args += [a for p in parents for a in ("--dir", p)]
        args += ["--ro-bind", root, root]
    return args


def start_worker(boot: str, fd: int, call_timeout_s: float) -> subprocess.Popen[bytes]:
    """A pool worker serving the socket `fd` inside bubblewrap (module docstring); `boot` is
    the code that serves it, run after the bootstrap applied the limits."""
    roots = _roots()
    uid = _UID_BASE + secrets.randbelow(_UID_SPAN) if dedicated_uid("bwrap") else None
    command = argv("bwrap", f"toolscale-worker-{os.getpid()}", uid)
    split = command.index("--")
    command[split:split] = _binds(roots)
    settings = {k: v for k, v in os.environ.items() if k.startswith("TOOLSCALE_")}
    env = {**ENV, **settings, LEVEL_ENV: "rlimits", "HF_HUB_OFFLINE": "1"}
    env |= {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    # Programs a tool of the domain runs start inside this same sandbox (LEVEL_ENV above).
    process = subprocess.Popen(command, pass_fds=[fd], stdin=subprocess.PIPE, env=env, cwd="/")
    header = f"{WORKER_CPU_S} {WORKER_MEMORY_MB} {WORKER_PROCESSES}\n"
    # toolscale's own folder first: an editable install is found by an import hook the worker's
    # isolated interpreter does not load, so the parent's sys.path alone may lack it.
    path = list(dict.fromkeys([roots[0], *sys.path]))
    code = f"import sys\nsys.path[:] = {path!r}\n{boot.format(fd=fd, timeout=call_timeout_s)}"
    stdin = cast(IO[bytes], process.stdin)
    stdin.write(header.encode() + code.encode())
    stdin.close()
    return process
