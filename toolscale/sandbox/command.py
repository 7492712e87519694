"""Build the command line that starts one sandboxed interpreter, for each isolation level.

Levels, strongest first (`toolscale.sandbox.isolation` picks one per process):

- `bwrap`: bubblewrap with new network, PID, IPC, UTS, cgroup and mount namespaces. The sandbox
  sees /usr (and the /bin, /lib... links into it), the interpreter's own install folder and
  /etc/ld.so.cache, all read-only; a minimal /dev; a /proc of its own PID namespace; and a
  size-capped private tmpfs at /tmp, which is also the working directory and the only writable
  place. Nothing else of the host (home, caches, project files, /etc, /sys) exists inside.
- `unshare`: util-linux `unshare` with new network, PID and IPC namespaces; the file system is the
  host's (read/write where the uid may write).
- `rlimits`: a plain child process.

At every level the interpreter is the real binary behind `sys.executable` run as `python -I -S`
(standard library only, no site-packages, no venv), with an environment cleared down to `ENV`;
bubblewrap and unshare themselves get the same environment, because their own /proc entries are
visible inside. As root, capabilities are dropped except CAP_SETUID/CAP_SETGID, which the
bootstrap needs once to switch to the dedicated uid (and then loses with every other capability).
"""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path

from toolscale.sandbox import bootstrap

TMPFS_BYTES = 64 << 20
ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp"}
_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


@cache
def interpreter() -> str:
    """The real interpreter binary (a venv's `python` is a link outside the sandbox's view)."""
    return os.path.realpath(sys.executable)


@cache
def _bootstrap_source() -> str:
    return Path(bootstrap.__file__).read_text(encoding="utf-8")


def python_argv(tag: str, uid: int | None) -> list[str]:
    """`python -I -S -c <bootstrap> <tag> <uid>`; the tag names the sandbox in `ps`."""
    user = "-" if uid is None else str(uid)
    return [interpreter(), "-I", "-S", "-c", _bootstrap_source(), tag, user]


def _bind_parents(path: str) -> list[str]:
    # bubblewrap creates missing mount points with mode 0700, which the dedicated uid could not
    # traverse; creating each parent with --dir gives 0755.
    parents = [str(p) for p in reversed(Path(path).parents) if str(p) != "/"]
    return [arg for parent in parents for arg in ("--dir", parent)]


@cache
def _filesystem() -> tuple[str, ...]:
    args = ["--ro-bind", "/usr", "/usr"]
    for link in _LINKS:
        if os.path.islink(link):
            args += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            args += ["--ro-bind", link, link]
    args += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    prefix = os.path.realpath(sys.base_prefix)
    binary_dir = os.path.dirname(interpreter())
    for folder in dict.fromkeys([prefix, binary_dir]):
        if folder != "/usr" and not folder.startswith("/usr/"):
            args += [*_bind_parents(folder), "--ro-bind", folder, folder]
    return tuple(args)


def bwrap_argv(tag: str, uid: int | None) -> list[str]:
    """The bubblewrap command line (see the module docstring for what it isolates)."""
    namespaces = ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts"]
    namespaces += ["--unshare-cgroup-try", "--hostname", "sandbox"]
    if os.geteuid() == 0:
        # bubblewrap run by root keeps every capability unless told otherwise.
        privileges = ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        privileges = ["--unshare-user"]
    return [
        "bwrap",
        *namespaces,
        *privileges,
        "--die-with-parent",
        "--new-session",
        *_filesystem(),
        "--dev", "/dev",
        "--proc", "/proc",
        "--perms", "1777", "--size", str(TMPFS_BYTES), "--tmpfs", "/tmp",
        "--chdir", "/tmp",
        "--",
        *python_argv(tag, uid),
    ]  # fmt: skip


def unshare_argv(tag: str, uid: int | None) -> list[str]:
    """The `unshare` command line: network, PID and IPC namespaces, killed with its parent."""
    user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
    flags = ["--net", "--ipc", "--pid", "--fork", "--kill-child", "--mount-proc"]
    return ["unshare", *user, *flags, "--", *python_argv(tag, uid)]


def argv(level: str, tag: str, uid: int | None) -> list[str]:
    """The command line that starts a sandboxed interpreter at `level`."""
    if level == "bwrap":
        return bwrap_argv(tag, uid)
    if level == "unshare":
        return unshare_argv(tag, uid)
    return python_argv(tag, uid)
