"""The few toolscale names the panel uses that moved since bb11636 (the code before issue 33), so
the same panel runs on either tree (`benchmarks/agent_panel.py --also bb11636`)."""

from __future__ import annotations

try:  # since the layout issue (1fdb57e)
    from toolscale.dialogue.conversation import plan_conversation
    from toolscale.economics.preferences import DEFAULT_SPREAD, as_json_answer
except ImportError:  # bb11636
    from toolscale.play.conversation import plan_conversation  # type: ignore[no-redef]
    from toolscale.sample.preferences import (  # type: ignore[no-redef]
        DEFAULT_SPREAD,
        as_json_answer,
    )

__all__ = ["DEFAULT_SPREAD", "as_json_answer", "plan_conversation"]
