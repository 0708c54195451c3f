"""Benchmark retrieval on a pair store of 10,000 synthesised method pairs.

Seeds are the real aligned pairs of datasets/sample (indexed into the bench workdir); each variant
renames the method, its parameters and the locals it declares, and changes numeric literals, so
snippets keep real lengths and shapes. Prints:
  model load time; embedding throughput (snippets/s, a fixed batch, cache bypassed);
  store build (embedding everything not cached), warm re-index (goal: 0 snippets embedded)
  and re-index after 10 edits (10 embedded);
  query latency p50/p95/max after the first model load, query embedding included (goal: p95 <= 50 ms), for the
  pair store alone and for what Retriever.retrieve does (pair + name store, one encode call), in wall and
  CPU time (time.process_time: steadier than wall time on a shared machine).

  python scripts/bench_retrieval.py                 # 10,000 pairs, 200 queries, /tmp/repotrans-bench-retrieval
  python scripts/bench_retrieval.py --fresh         # drop the bench workdir (and its embedding cache) first
  python scripts/bench_retrieval.py --port WORKDIR [WORKDIR...] --queries 150 --k 5 --pools 0 50 100 200 \
        --backends torch onnx onnx-int8 [--first-retrieval]
        # workdirs where `repotrans index` indexed a real Java project and its C# port: recall of useful
        # pairs (what the masked method's C# body calls, same-named Java methods) for masked methods,
        # per backend, whole-store vs pooled dense routes, side by side; with --first-retrieval the time
        # to the first retrieval of a fresh run folder (cold machine cache) and of a second one, per stage
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

import torch

from repotrans.mapping.load import load_mapping
from repotrans.index.store import Index
from repotrans.retrieval.embed_cache import CACHE_FILE, EmbeddingCache
from repotrans.retrieval.encoders import TorchEncoder
from repotrans.retrieval.retriever import RETRIEVAL_DIR, Retriever
from repotrans.retrieval.stores import NameStore, PairEntry, PairStore, collect_names, has_real_body

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "datasets" / "sample"
WORDS = ("account ledger entry balance amount rate order item price customer invoice payment total report "
         "period window buffer cache record event shape circle point vector matrix node edge graph path queue "
         "stack token parser reader writer config limit score").split()
# a local declaration: `Type name =` / `Type name;` / `for (Type name :`
_LOCAL = re.compile(r"\b[A-Za-z_][\w<>\[\], ?]*\s+([a-z]\w*)\s*(?==|;|:)")
_NUMBER = re.compile(r"(?<![\w.])\d+(\.\d+)?")


def seed_pairs(workdir: Path) -> list[PairEntry]:
    """The aligned pairs of datasets/sample whose bodies are real."""
    index = Index.open(workdir)
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    mapping = load_mapping(index)
    pairs = []
    for match in mapping.method_matches:
        src, tgt = index.method(match.source_id), index.method(match.target_id)
        if has_real_body(src.body) and has_real_body(tgt.body):
            pairs.append(PairEntry(src.id, tgt.id, src.signature, src.body, tgt.signature, tgt.body))
    index.close()
    if not pairs:
        sys.exit("bench_retrieval: datasets/sample has no aligned pairs with real bodies")
    return pairs


def _rename(text: str, names: dict[str, str]) -> str:
    for old, new in names.items():
        text = re.sub(rf"\b{re.escape(old)}\b", new, text)
    return text


def variant(seed: PairEntry, n: int, rng: random.Random) -> PairEntry:
    """Seed with renamed method, parameters and locals (same renames on both sides) and new literals."""
    idents = set(re.findall(r"\(([^)]*)\)", seed.java_signature)[0].split()[1::2] if "(" in seed.java_signature
                 else [])
    idents = {i.strip(",") for i in idents} | set(_LOCAL.findall(seed.java_body))
    names = {i: f"{i}{rng.choice(WORDS).title()}" for i in sorted(idents) if len(i) > 1}
    method = re.search(r"(\w+)\s*\(", seed.java_signature)
    if method:
        word = rng.choice(WORDS).title()
        names[method.group(1)] = f"{method.group(1)}{word}{n}"
        cs_names = {**names, method.group(1)[:1].upper() + method.group(1)[1:]:
                    method.group(1)[:1].upper() + method.group(1)[1:] + f"{word}{n}"}
    else:
        cs_names = names
    def number(m: re.Match) -> str:
        return str(rng.randint(0, 999)) if m.group(1) is None else f"{rng.random() * 100:.2f}"

    return PairEntry(f"{seed.source_id}#{n}", f"{seed.target_id}#{n}",
                     _rename(seed.java_signature, names), _NUMBER.sub(number, _rename(seed.java_body, names)),
                     _rename(seed.cs_signature, cs_names), _NUMBER.sub(number, _rename(seed.cs_body, cs_names)))


def synthesise(seeds: list[PairEntry], count: int, start: int, rng: random.Random) -> list[PairEntry]:
    return [variant(seeds[i % len(seeds)], start + i, rng) for i in range(count)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=10_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--throughput-batch", type=int, default=512, help="snippets embedded for the throughput figure")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads, at most 2 (on a loaded 2-core machine 1 is ~10x faster than 2)")
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/repotrans-bench-retrieval"))
    ap.add_argument("--fresh", action="store_true", help="delete the workdir (and its embedding cache) first")
    ap.add_argument("--port", type=Path, nargs="+", help="workdirs indexing real ports: recall of useful pairs "
                                                         "for masked methods instead, side by side")
    ap.add_argument("--no-recall", action="store_true", help="--port: only the first-retrieval timings")
    ap.add_argument("--first-retrieval", action="store_true",
                    help="--port: also time the first retrieval of a fresh run folder (cold machine cache) and of a "
                         "second run folder, stage by stage")
    ap.add_argument("--cache-dir", type=Path, default=Path("/tmp/repotrans-bench-cache"),
                    help="--port: the embedding cache the recall figures read (warm it once)")
    ap.add_argument("--backends", nargs="+", default=["torch"], help="--port: embedding backends to compare")
    ap.add_argument("--pools", nargs="+", type=int, default=[0, 100], help="--port: dense pools (0: whole store)")
    ap.add_argument("--whole-store-for", nargs="+", default=["torch"],
                    help="--port: backends measured with pool 0 too (the whole store is embedded: minutes per backend)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.port:
        return port_main(args)
    torch.set_num_threads(min(args.threads, 2))
    if args.fresh:
        shutil.rmtree(args.workdir, ignore_errors=True)
    args.workdir.mkdir(parents=True, exist_ok=True)

    rng = random.Random(7)
    seeds = seed_pairs(args.workdir)
    entries = synthesise(seeds, args.pairs, 0, rng)
    queries = synthesise(seeds, args.queries, args.pairs, random.Random(11))
    chars = statistics.mean(len(e.text()) for e in entries)
    print(f"store: {len(entries)} pairs from {len(seeds)} seeds of datasets/sample, {chars:.0f} chars per "
          f"Java snippet on average; torch threads {torch.get_num_threads()}")

    t = time.perf_counter()
    encoder = TorchEncoder()
    encoder.load()
    print(f"model load: {time.perf_counter() - t:.2f} s ({encoder.name}, dim {encoder.dim})")

    batch = [e.text() for e in synthesise(seeds, args.throughput_batch, 10 ** 6, random.Random(3))]
    t = time.perf_counter()
    encoder.encode(batch)
    print(f"embedding throughput: {len(batch) / (time.perf_counter() - t):.1f} snippets/s "
          f"({len(batch)} snippets, cache bypassed)")

    cache = EmbeddingCache(args.workdir / RETRIEVAL_DIR / CACHE_FILE)
    folder = args.workdir / RETRIEVAL_DIR / "bench" / "pairs"
    t = time.perf_counter()
    store = PairStore.open(folder, entries, encoder, cache, rebuild=True)
    build = time.perf_counter() - t
    rate = f", {store.embedded / build:.1f} snippets/s" if store.embedded else ""
    print(f"store build (--rebuild): {build:.1f} s, embedded {store.embedded} snippets{rate} "
          "(0 when an earlier run left the embedding cache warm)")
    t = time.perf_counter()
    store = PairStore.open(folder, entries, encoder, cache)
    print(f"warm re-index (nothing changed): {time.perf_counter() - t:.2f} s, embedded {store.embedded} snippets "
          f"(goal 0)")
    changed = entries[:]
    stamp = time.time_ns()                          # edits never seen before, so they must be embedded
    for i in range(0, 100, 10):
        changed[i] = PairEntry(**{**changed[i].__dict__, "java_body": f"{changed[i].java_body} // {stamp}"})
    t = time.perf_counter()
    store = PairStore.open(folder, changed, encoder, cache)
    print(f"re-index after editing 10 pairs: {time.perf_counter() - t:.2f} s, embedded {store.embedded} snippets")

    store.query(queries[0].java_signature, queries[0].java_body, args.k)      # first query after the load
    latencies, dense_only = [], []
    for q in queries:
        t = time.perf_counter()
        hits = store.query(q.java_signature, q.java_body, args.k)
        latencies.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        encoder.encode([q.text()])
        dense_only.append((time.perf_counter() - t) * 1000)
        if not hits:
            sys.exit("bench_retrieval: a query returned nothing")
    p95 = percentile(latencies, 0.95)
    print(f"pair-store query latency over {len(latencies)} queries (k={args.k}, store {len(store)}, embedding "
          f"included): p50 {statistics.median(latencies):.1f} ms, p95 {p95:.1f} ms, max {max(latencies):.1f} ms")
    print(f"  query embedding alone: p50 {statistics.median(dense_only):.1f} ms, "
          f"p95 {percentile(dense_only, 0.95):.1f} ms")
    retrieve_queries(args, store, encoder, cache, queries)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    cache.close()
    return 0


def retrieve_queries(args: argparse.Namespace, pairs: PairStore, encoder: TorchEncoder, cache: EmbeddingCache,
                     queries: list[PairEntry]) -> None:
    """What `Retriever.retrieve` does per function: the pair store and the name store of datasets/sample,
    both queries embedded in one encode call; against the same two queries embedded one by one."""
    index = Index.open(args.workdir)
    names = NameStore.open(args.workdir / RETRIEVAL_DIR / "bench" / "names",
                           collect_names(index.all_methods("target"), frozenset()), encoder, cache, progress=False)
    retriever = Retriever(index, load_mapping(index), pairs, names, frozenset())
    anchors = [index.method(q.target_id.split("#", 1)[0]) for q in queries]
    timings: dict[str, tuple[list[float], list[float]]] = {"one encode call": ([], []), "two encode calls": ([], [])}
    for q, anchor in zip(queries, anchors):
        for label, (wall, cpu) in timings.items():
            t, c = time.perf_counter(), time.process_time()
            if label == "one encode call":
                retriever.search(q.java_signature, q.java_body, anchor.type_id, q.cs_signature, args.k)
            else:
                pairs.query(q.java_signature, q.java_body, args.k)
                names.query(anchor.type_id, q.cs_signature, args.k)
            wall.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
    for label, (wall, cpu) in timings.items():
        p95 = percentile(wall, 0.95)
        print(f"retrieve (pairs {len(pairs)} + names {len(names)}), {label}: wall p50 {statistics.median(wall):.1f} ms, "
              f"p95 {p95:.1f} ms (goal p95 <= 50 ms: {'met' if p95 <= 50 else 'NOT met'}); CPU p50 "
              f"{statistics.median(cpu):.1f} ms, p95 {percentile(cpu, 0.95):.1f} ms per query")
    index.close()



# --- a real port: recall of useful pairs and time to the first retrieval ----------------------------

def useful_pairs(index, pairs: list[PairEntry], query: PairEntry) -> set[int]:
    """Rows of the pairs worth showing for `query` (its own pair left out): those whose C# method
    the query's ground-truth C# body calls, and those translating a Java method of the same name
    (overloads, overrides in other types). The ground truth only judges; it never reaches the query."""
    called = set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", query.cs_body))
    java_name = re.search(r"(\w+)\s*\(", query.java_signature)
    useful = set()
    for row, p in enumerate(pairs):
        if p.source_id == query.source_id:
            continue
        cs_name = re.search(r"(\w+)\s*[(\[]", p.cs_signature)
        same_java = java_name and re.search(rf"\b{re.escape(java_name.group(1))}\s*\(", p.java_signature)
        if (cs_name and cs_name.group(1) in called) or same_java:
            useful.add(row)
    return useful


def port_recall(store: PairStore, queries: list[tuple[PairEntry, set[int]]], k: int, vectors) -> tuple[float, float]:
    """Mean recall@k (useful pairs found / min(useful, k)) and hit rate@k over the queries."""
    recall, hits = [], 0
    for (q, useful), vector in zip(queries, vectors):
        found = {row for row, _ in store.search(PairStore.query_text(q.java_signature, q.java_body), k,
                                                (q.source_id, q.target_id), vector)}
        recall.append(len(found & useful) / min(len(useful), k))
        hits += bool(found & useful)
    return statistics.mean(recall), hits / len(queries)


def first_retrieval(workdir: Path, cache_dir: Path, backend: str, pool: int, threads: int, function: str) -> str:
    """Seconds from a fresh process to the first retrieval's answer in a fresh run folder (a copy of
    the index), measured in a child process so imports and the model load count; then where the
    time went, stage by stage (retrieval.stages), and the load average when it ended."""
    import subprocess
    import tempfile
    run = Path(tempfile.mkdtemp(prefix="repotrans-run-"))
    shutil.copy(Index.file_in(workdir), Index.file_in(run))
    code = ("import time, sys; t = time.perf_counter(); c = time.process_time()\n"
            "from pathlib import Path\n"
            "from repotrans.retrieval.retriever import retrieve\n"
            "from repotrans.retrieval.stages import recording, report\n"
            "imports = (time.perf_counter() - t, time.process_time() - c)\n"
            "with recording() as log:\n"
            f"    r = retrieve(Path({str(run)!r}), {function!r}, k=5, backend={backend!r}, threads={threads}, "
            f"cache_dir=Path({str(cache_dir)!r}), names=False, progress=False, pool={pool})\n"
            "print(f'{time.perf_counter() - t:.1f} s wall, {time.process_time() - c:.1f} s CPU')\n"
            "print(f'imports: {imports[0]:.2f} s wall, {imports[1]:.2f} s CPU')\n"
            "print(report(log.records))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=3600,
                         env={**os.environ, "HF_HUB_OFFLINE": "1"})
    shutil.rmtree(run, ignore_errors=True)
    if out.returncode or not out.stdout.strip():
        return f"failed: {out.stderr.strip()[-300:]}"
    total, *stages = out.stdout.strip().splitlines()
    return f"{total} (load average {os.getloadavg()[0]:.1f})\n" + "\n".join(f"      {line}" for line in stages)


def port_queries(workdir: Path, count: int) -> tuple[list[PairEntry], list[tuple[PairEntry, set[int]]]]:
    """The aligned pairs of a port and `count` masked methods with their useful pairs (seeded sample)."""
    from repotrans.retrieval.stores import collect_pairs

    index = Index.open(workdir, must_exist=True)
    mapping = load_mapping(index)
    methods = {m.id: m for m in index.all_methods("source") + index.all_methods("target")}
    pairs = collect_pairs(methods, mapping.method_matches, frozenset())
    rng = random.Random(5)
    queries = [(q, useful_pairs(index, pairs, q)) for q in rng.sample(pairs, min(len(pairs), count * 3))]
    index.close()
    return pairs, [(q, u) for q, u in queries if u][:count]


def print_recall(rows: list[tuple], k: int) -> None:
    """The recall table: one row per (port, backend, route), against the port's torch whole store."""
    print(f"| port | backend | dense route | recall@{k} | vs torch whole store | hit@{k} | embedded | "
          "wall s | CPU s | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for port, backend, pool, recall, hit, embedded, wall, cpu, load in rows:
        base = next((r for r in rows if r[0] == port and r[1] == "torch" and r[2] == 0), None)
        versus = f"{100 * (recall - base[3]):+.1f} pts" if base else "n/a (no torch whole-store row)"
        route = "whole store" if pool == 0 else f"BM25 pool {pool}"
        print(f"| {port} | {backend} | {route} | {recall:.3f} | {versus} | {hit:.3f} | {embedded} | "
              f"{wall:.1f} | {cpu:.1f} | {load:.1f} |")


def port_main(args: argparse.Namespace) -> int:
    """Recall of useful pairs for masked methods of real ports, per backend, whole-store vs pooled
    dense routes, side by side in one table; then (--first-retrieval) the time to the first retrieval
    of a fresh run folder with a cold machine cache and of a second run folder."""
    from repotrans.retrieval.encoders import make_encoder

    rows = []
    for port in [] if args.no_recall else args.port:
        pairs, queries = port_queries(port, args.queries)
        print(f"port {port}: {len(pairs)} aligned pairs with real bodies; {len(queries)} masked methods with "
              f"useful pairs (mean {statistics.mean(len(u) for _, u in queries):.1f} each); k={args.k}", flush=True)
        for backend in args.backends:
            encoder = make_encoder(backend=backend, threads=args.threads, cache_dir=args.cache_dir)
            cache = EmbeddingCache.in_folder(args.cache_dir)
            vectors = encoder.encode([PairStore.query_text(q.java_signature, q.java_body) for q, _ in queries])
            for pool in [p for p in args.pools if p or backend in args.whole_store_for]:
                t, c = time.perf_counter(), time.process_time()
                store = PairStore.open(Path(tempfile_dir()) / f"{backend}-{pool}", pairs, encoder, cache, pool=pool,
                                       progress=not args.quiet)
                recall, hit = port_recall(store, queries, args.k, vectors)
                rows.append((port.name, backend, pool, recall, hit, store.embedded, time.perf_counter() - t,
                             time.process_time() - c, os.getloadavg()[0]))
                print(f"  {backend}, pool {pool}: recall@{args.k} {recall:.3f}", flush=True)
            cache.close()
    if rows:
        print_recall(rows, args.k)
    if args.first_retrieval:
        for port in args.port:
            function = port_queries(port, 1)[1][0][0].source_id
            for backend in args.backends:
                for pool in [p for p in args.pools if p]:
                    cold = Path(tempfile_dir()) / f"cold-{backend}-{pool}"
                    print(f"first retrieval of a fresh run folder, {port.name}, {backend}, pool {pool}, cold machine "
                          f"cache: {first_retrieval(port, cold, backend, pool, args.threads, function)}", flush=True)
                    print(f"  second run folder: {first_retrieval(port, cold, backend, pool, args.threads, function)}",
                          flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


def tempfile_dir() -> str:
    import tempfile
    return tempfile.mkdtemp(prefix="repotrans-bench-")


if __name__ == "__main__":
    sys.exit(main())
