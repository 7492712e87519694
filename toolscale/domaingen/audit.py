"""An audit hook for the sandboxed processes that run generated code: it blocks and reports a
socket, a look into the home folder, a program started, before the call is made.

It is not the boundary (the sandbox is: a blocked call would fail there anyway, and code can
get past a hook); it is what lets the gate say what a domain tried. This file is standard
library only and is not imported by toolscale: `toolscale.domaingen.jail` runs its source in the
gate process and installs it as the `sitecustomize` of every process that one starts. Each
blocked call is one line `TOOLSCALE-AUDIT {json}` on file descriptor 2, and a PermissionError.
"""

import json
import os
import sys

AUDIT_PREFIX = "TOOLSCALE-AUDIT "
NETWORK = frozenset(
    ("socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg", "socket.getaddrinfo",
     "socket.gethostbyname", "socket.gethostbyaddr")
)  # fmt: skip
FILES = frozenset(("open", "os.listdir", "os.scandir", "os.chdir"))
PROGRAMS = frozenset(("os.system", "os.exec", "os.posix_spawn", "os.fork", "os.spawn"))


def _under(path: str, roots: list[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def install() -> None:
    """Install the hook, reading what it watches from the environment (set by the jail)."""
    watched = [p for p in os.environ.get("TOOLSCALE_AUDIT_WATCHED", "").split(":") if p]
    allowed = [p for p in os.environ.get("TOOLSCALE_AUDIT_ALLOWED", "").split(":") if p]
    interpreter = os.path.realpath(sys.executable)

    def report(what: str, detail: object) -> None:
        line = json.dumps({"event": what, "detail": str(detail)[:300], "pid": os.getpid()})
        os.write(2, (AUDIT_PREFIX + line + "\n").encode())
        raise PermissionError(f"blocked by the toolscale sandbox: {what} {detail}")

    def hook(event: str, args: tuple) -> None:
        if event == "socket.getaddrinfo":
            report(event, f"{args[0]}:{args[1]}")
        elif event in NETWORK:
            report(event, args[1] if len(args) > 1 else args)
        elif event in FILES and args and isinstance(args[0], (str, bytes)):
            path = os.fsdecode(args[0])
            path = os.path.abspath(path)
            if _under(path, watched) and not _under(path, allowed):
                report(event, path)
        elif event in PROGRAMS:
            report(event, args[0] if args else "")
        elif event == "subprocess.Popen" and args:
            program = os.fsdecode(args[0]) if args[0] is not None else ""
            if os.path.realpath(program) != interpreter:
                report(event, program)

    sys.addaudithook(hook)
