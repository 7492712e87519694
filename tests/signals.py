"""Child processes that Ctrl-C reaches, however the test run itself was started."""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """`preexec_fn` for a child that a test interrupts with SIGINT: restore its default action.
    A process started with SIGINT ignored (a background job of a non-interactive shell, `cmd &`
    in a CI script, nohup) passes that on to its children, and Python then installs no
    KeyboardInterrupt handler, so the test's SIGINT would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
