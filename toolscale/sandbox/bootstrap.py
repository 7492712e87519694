"""The first code a sandboxed interpreter runs: wait for one job, apply its limits, run it.

This file is not imported by toolscale: its source is passed to `python -I -S -c` inside the
sandbox (see `toolscale.sandbox.command`), so it uses the standard library only. The interpreter
starts ahead of time (the warm pool) and blocks on stdin; the job arrives as one header line
`cpu_s memory_mb nproc` followed by the code, and stdin is closed. The limits are applied here,
after start-up, so they can differ per call. When started as root (argv[2] is a uid, not "-"),
the process drops to that dedicated uid, which removes every capability and makes the kernel
enforce RLIMIT_NPROC (root is exempt from it). A spare whose owner exits sees stdin close with no
job and exits too.
"""

import os
import resource
import sys

FILE_SIZE = 16 << 20
OPEN_FILES = 64


def main() -> None:
    """Read the job from stdin, limit this process, drop privileges and run the code."""
    header, _, code = sys.stdin.buffer.read().partition(b"\n")
    if not header:  # the owner went away without a job (stdin closed): nothing to do
        return
    cpu_s, memory_mb, nproc = (int(v) for v in header.split())
    # The code gets an empty stdin: a program that reads it sees end-of-file at once.
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu = int(used.ru_utime + used.ru_stime) + cpu_s
    limits = {
        resource.RLIMIT_CPU: (cpu, cpu + 1),
        resource.RLIMIT_AS: (memory_mb << 20, memory_mb << 20),
        resource.RLIMIT_FSIZE: (FILE_SIZE, FILE_SIZE),
        resource.RLIMIT_NOFILE: (OPEN_FILES, OPEN_FILES),
        resource.RLIMIT_CORE: (0, 0),
    }
    uid = sys.argv[2]
    if uid != "-":
        limits[resource.RLIMIT_NPROC] = (nproc, nproc)
    for which, value in limits.items():
        resource.setrlimit(which, value)
    if uid != "-":
        os.setgroups([])
        os.setresgid(int(uid), int(uid), int(uid))
        os.setresuid(int(uid), int(uid), int(uid))
    sys.argv = ["<code>"]
    source = compile(code, "<code>", "exec")
    exec(source, {"__name__": "__main__", "__builtins__": __builtins__})


if __name__ == "__main__":
    main()
