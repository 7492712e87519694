"""`answer`: ToolOrchestra's delegated answer, as a Toolkit mixin: the call names a model, the
environment hands it the user's question, and the model's reply is the final answer.

ToolOrchestra's orchestrator never writes a model's input: its `answer(model)` sends the
question to the model it names, whose answer goes to the user. Here the question is the task's
own, as the user asked it (`state["question"]`, which the domain puts in the state; the state
holds no answer key), and the named expert replies as `ask_expert` would to that question:
simulated by its skill profile, or by its endpoint where one is configured. The policy then ends
its turn with nothing to add, and the reply is its final answer
(`toolscale.play.transcript.final_answer_of`); a message of its own after the reply is its final
answer instead, judged by its own answer statement.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from toolscale.core.contract import ToolKind, tool
from toolscale.tools.experts import ExpertReading


class AnswerTool(ExpertReading):
    answer_tools: ClassVar[tuple[str, ...]] = ("answer",)

    @tool(ToolKind.MODEL)
    def answer(self, expert: Literal["expert-1", "expert-2", "expert-3"]) -> str:
        """Hand the user's question, exactly as they asked it, to an expert language model: its
        reply goes to the user as your final answer, so end your turn after it without writing
        anything (a message of your own would replace the reply, and must then state the answer
        as "The answer is X."). Experts are priced per token (their reasoning included) and can
        be wrong; each is good at different kinds of question: the system prompt says how often
        each was right on this domain's questions.

        Args:
            expert: Which expert answers.
        """
        return self.expert_reply(expert, self.delegated_question())
