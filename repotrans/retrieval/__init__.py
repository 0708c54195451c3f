"""Retrieval: a pair store (aligned Java/C# bodies) and a name store (target method names),
each searched by BM25 and dense routes fused with Reciprocal Rank Fusion."""
from repotrans.retrieval.retriever import RetrievalResult, Retriever, retrieve
from repotrans.retrieval.stores import NameHit, NameStore, PairHit, PairStore

__all__ = ["NameHit", "NameStore", "PairHit", "PairStore", "RetrievalResult", "Retriever", "retrieve"]
