"""The retrieval layer's own settings (`[retrieval]`); agents.config composes them with the other layers'
(execution.settings, the model's) into one run configuration."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class RetrievalConfig:
    """Which embedding model the dense route uses, how it runs, and how many rows it ranks."""
    embedding_model: str = "all-MiniLM-L6-v2"   # a name the retrieval layer ships, or a local model folder
    backend: str = "onnx"                 # onnx | onnx-int8 | torch (retrieval.encoders): the same model; onnx
                                          # gives torch's vectors without importing torch (a run starts in ~1 s)
    threads: int = 0                      # embedding threads (0: the library's default)
    pool: int = 100                       # > 0: the dense route ranks (and embeds) only BM25's best `pool`
                                          # rows (retrieval.pooled); 0: the whole store, embedded at first query
