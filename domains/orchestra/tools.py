"""The orchestra toolkit: `answer` alone, its experts reading math problems and world questions.

A task's state holds the user's question (`question`) and, for a question about the knowledge
domain's world, the corpus it names (`corpus`); the simulated experts read a question as that
domain's experts do (`domains.math.expertise`, `domains.knowledge.expert`), so an expert answers
the same question alike in all three domains.
"""

from __future__ import annotations

from domains.knowledge.tools import KnowledgeTools
from domains.math.tools import MathTools
from toolscale.tools.delegate import AnswerTool
from toolscale.tools.experts import ExpertReading
from toolscale.tools.skills import Known


class OrchestraTools(AnswerTool):
    """answer (priced by the task's schedule)."""

    def _reader(self) -> ExpertReading:
        """The experts of the domain the question comes from, on this state."""
        return KnowledgeTools(self.state) if "corpus" in self.state else MathTools(self.state)

    def expert_knowledge(self, question: str) -> Known | None:
        return self._reader().expert_knowledge(question)

    def expert_parts(self, question: str) -> list[Known | None]:
        return self._reader().expert_parts(question)

    def expert_missing(self, question: str) -> str:
        return self._reader().expert_missing(question)
