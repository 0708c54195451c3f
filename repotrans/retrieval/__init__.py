"""Retrieval: a pair store (aligned Java/C# bodies) and a name store (target method names),
each searched by BM25 and dense routes fused with Reciprocal Rank Fusion."""
from repotrans.retrieval.retriever import RetrievalResult, Retriever, retrieve
from repotrans.retrieval.stores import Candidate, NameCandidate, NameStore, PairStore

__all__ = ["Candidate", "NameCandidate", "NameStore", "PairStore", "RetrievalResult", "Retriever", "retrieve"]
