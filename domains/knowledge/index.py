"""BM25 search over one corpus: a bm25s index built once per (seed, size), deterministic ranking.

bm25s scores the documents; the ranking is ours: a stable sort on descending score, so equal
scores keep document-id order, and documents that match no query word are never returned.
Queries are tokenised by one regex (no stemming), the same one used to index the documents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import bm25s
import numpy as np
from bm25s.stopwords import STOPWORDS_EN

from domains.knowledge.corpus import Corpus, Doc, build_corpus

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(STOPWORDS_EN)


def tokens(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP]


@dataclass(frozen=True)
class Index:
    corpus: Corpus
    bm25: bm25s.BM25

    def rank(self, query: str, k: int) -> list[Doc]:
        """The top `k` documents for `query`, best first; ties in document-id order."""
        ids = self.bm25.get_tokens_ids(tokens(query))
        if not ids:
            return []
        scores = self.bm25.get_scores_from_ids(ids)
        order = np.argsort(-scores, kind="stable")[:k]
        return [self.corpus.docs[i] for i in order.tolist() if scores[i] > 0]


@cache
def build_index(seed: int, size: int) -> Index:
    corpus = build_corpus(seed, size)
    bm25 = bm25s.BM25()
    bm25.index([tokens(f"{d.title} {d.text}") for d in corpus.docs], show_progress=False)
    return Index(corpus, bm25)
