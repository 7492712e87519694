"""The knowledge toolkit: document search and lookup over the run's corpus, calculator, experts.

The state only names the corpus (`{"corpus": {"seed", "size"}}`); the documents
themselves are rebuilt once per process from that seed, so every tool here reads and none writes.
"""

from __future__ import annotations

import json

from domains.knowledge.expert import known
from domains.knowledge.index import Index, build_index
from domains.knowledge.parts import missing, parts
from toolscale.core.contract import ToolError, ToolKind, tool
from toolscale.tools.bounds import identifier, quoted, text
from toolscale.tools.experts import ExpertTool
from toolscale.tools.orchestration import CalculatorTool
from toolscale.tools.skills import Known

MAX_K = 10


class KnowledgeTools(CalculatorTool, ExpertTool):
    def _index(self) -> Index:
        corpus = self.state["corpus"]
        return build_index(corpus["seed"], corpus["size"])

    def expert_knowledge(self, question: str) -> Known | None:
        """A simulated expert looks up the entity and relation the question names in the run's
        world (it knows the world the documents describe, facts no document states included,
        not the task)."""
        return known(self._index().corpus, question)

    def expert_parts(self, question: str) -> list[Known | None]:
        """Each part read alone, a part that refers back ("where was that founder born?") from
        the previous part's answer (domains.knowledge.parts)."""
        return parts(self._index().corpus, question)

    def expert_missing(self, question: str) -> str:
        """What the question lacks: an entity of this world, or what is asked of it."""
        return missing(self._index().corpus, question)

    @tool(ToolKind.READ, fee=0.005, latency_ms=400, ms_per_token=0.2)
    def search(self, query: str, k: int = 3) -> str:
        """Search the document collection by keywords (BM25 ranking: documents sharing the rarest
        query words come first; there is no stemming and no semantic matching, so use names and
        exact words). Returns a JSON list of the best matches, best first, each with its
        "doc_id", "title" and full "text"; an empty list when no document shares a query word.

        Args:
            query: Keywords to search for, e.g. an entity's name such as "Saegeist Instruments".
            k: How many documents to return, from 1 to 10.
        """
        if not query.strip():
            raise ToolError("query is empty; search for a name or other keywords")
        text(query, "query")
        if not 1 <= k <= MAX_K:
            raise ToolError(f"k must be between 1 and {MAX_K}, got {k}")
        docs = self._index().rank(query, k)
        return json.dumps([d.as_dict() for d in docs])

    @tool(ToolKind.READ, fee=0.0005, latency_ms=60, ms_per_token=0.2)
    def read_document(self, doc_id: str) -> str:
        """Read one document by its id (as returned by search). Returns a JSON object with
        "doc_id", "title" and "text".

        Args:
            doc_id: The document's id, e.g. "doc-0042".
        """
        doc = self._index().corpus.by_id.get(identifier(doc_id, "doc_id"))
        if doc is None:
            raise ToolError(f"no document with id {quoted(doc_id)}; ids look like 'doc-0042'")
        return json.dumps(doc.as_dict())
