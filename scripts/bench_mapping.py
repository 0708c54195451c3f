"""Score the Java -> C# mapping against a hand-checked gold alignment, and time it.

  python scripts/bench_mapping.py --source ZXING/core/src/main/java --target ZXING_NET/Source/lib \
      [--gold scripts/data/mapping_gold_zxing.tsv] [--misses] [--synthetic] [--remove 300] [--rename 40]

The gold file (names and locations only) lists Java types and methods with their C# counterpart or
`-` (no counterpart). Gold sets (scripts/data/), each made by reading both sides:
  mapping_gold_zxing.tsv     zxing-3.3.2 core/src/main/java <-> ZXing.Net v0.16.4.0 Source/lib (the default)
  mapping_gold_metadata.tsv  metadata-extractor Source <-> metadata-extractor-dotnet MetadataExtractor
                             (seven types the port renamed, re-typed or moved to extension classes)
  mapping_gold_bcrypt.tsv    jBCrypt src/main/java <-> BCrypt.Net 8f79b16 (one class, snake_case and
                             abbreviated names spelled out, an int[] out-parameter made `ref int`); it
                             scores a masked copy of the port the same way (--target the masked tree)
  mapping_gold_cassowary.tsv cassowary e3b3fd8 java/ <-> Cassowary.net 55769cb Cassowary/ (twelve solver
                             types: snake_case setters and bare getters made properties, F-prefixed
                             predicates, a parameter added, members left out); run with the whole trees
  mapping_gold_libphonenumber.tsv  libphonenumber v5.0 java/libphonenumber <-> its C# port csharp/ (every
                             type and method, tests included: mutators moved to protobuf Builders,
                             newBuilder -> CreateBuilder, Iterator -> IEnumerator, an interface made a
                             delegate, JUnit 3 -> NUnit fixtures, members the port replaced)
  mapping_gold_ewah.tsv      javaewah 4732ff4 src/ <-> csharpewah 270dd91 (an older, smaller port that renamed
                             its types: EWAHCompressedBitmap -> EwahCompressedBitArray, EWAHIterator ->
                             EwahEnumerator; literal -> dirty words; made after the libphonenumber rules, to
                             check them on a port they were not tuned on)
Methods fall into categories by what the port did: same-name (PascalCase or the same name), accessor
(-> property or indexer), constructor, retyped (same name and arity, a parameter type the type map
cannot relate), renamed (another name or parameter count), moved (a member of another C# type) and
none (no counterpart). Prints precision and recall per category, how many no-counterpart methods were
matched (goal 0), the mapping time of the pair (and with --synthetic of bench_index's ~1,500 +
~1,200-file pair, goal < 1 s).
With --remove N, N random C# members that are gold counterparts are cut out of a copy of the C#
tree: their Java methods then have no counterpart, and any match for them is a guess (goal 0).
With --rename N, N random C# types (gold counterparts) get new names everywhere in a copy of the C#
tree (`X` -> `XRenamed<k>` or an unrelated `Renamed<k>`): how many does the mapping still find, and
with them their members.
With --rename-members N, N random C# methods (gold counterparts whose name no other C# member or type
has) get unrelated names (`M` -> `Zq<k>`, declaration and every use) in a copy of the C# tree: no name
evidence is left, so what finds them is evidence that does not depend on names (body, neighbours).
"""
from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from repotrans.mapping.mapping import build_mapping
from repotrans.index.store import Index
from repotrans.mapping.typenames import compat, java_param_type, parse_type

HERE = Path(__file__).resolve().parent
DEFAULT_GOLD = HERE / "data" / "mapping_gold_zxing.tsv"
CATEGORIES = ("same-name", "accessor", "constructor", "retyped", "renamed", "moved", "none")


def read_gold(path: Path) -> list[tuple[str, str, str]]:
    """(kind, java id, C# id or '-') rows, ids with their side prefix."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        kind, java, _, cs, _ = line.split("\t")
        rows.append((kind, "source:" + java, "-" if cs == "-" else "target:" + cs))
    return rows


def _simple(member_id: str) -> str:
    return re.sub(r"[(\[].*$", "", member_id).rsplit(".", 1)[-1]


def _retyped(jm, cm, gold_types: dict[str, str]) -> bool:
    project: dict[str, set[str]] = {}
    for j, c in gold_types.items():
        project.setdefault(_simple(j), set()).add(_simple(c))
    return any(compat(java_param_type(jp.type, jp.varargs), parse_type(cp.type), project,
                      frozenset(jm.type_params) | frozenset("TKVE"), frozenset(cm.type_params) | frozenset("TKVE")) == 0
               for jp, cp in zip(jm.params, cm.params))


def category(index: Index, java_id: str, cs_id: str, gold_types: dict[str, str]) -> str:
    if cs_id == "-":
        return "none"
    jm, cm = index.method(java_id), index.method(cs_id)
    if jm is None or cm is None:
        raise SystemExit(f"gold row not in the index: {java_id} -> {cs_id} (wrong checkout?)")
    if gold_types.get(jm.type_id) != cm.type_id:
        return "moved"
    if cm.kind in ("property", "indexer"):
        return "accessor"
    same = jm.kind == "constructor" or jm.name.lower() == cm.name.lower()
    if not same or len(jm.params) != len(cm.params):
        return "renamed"
    if _retyped(jm, cm, gold_types):
        return "retyped"
    return "constructor" if jm.kind == "constructor" else "same-name"


def score(index: Index, gold: list[tuple[str, str, str]], show_misses: bool) -> dict[str, float]:
    started = time.perf_counter()
    mapping = build_mapping(index)
    seconds = time.perf_counter() - started
    gold_types = {j: c for kind, j, c in gold if kind == "type" and c != "-"}
    stats: dict[str, Counter] = {}
    misses = []
    for kind, java, cs in gold:
        got = mapping.target_type(java) if kind == "type" else mapping.target_method(java)
        got_id = got.target_id if got else None
        if kind == "type":
            cat = "type" if cs != "-" else "type none"
        else:
            cat = category(index, java, cs, gold_types)
        c = stats.setdefault(cat, Counter())
        c["gold"] += 1
        c["pairs"] += cs != "-"
        c["predicted"] += got_id is not None
        c["correct"] += got_id is not None and got_id == cs
        if got_id != (None if cs == "-" else cs):
            reason = (mapping.unmatched_types if kind == "type" else mapping.unmatched_methods).get(java, "")
            misses.append(f"  [{cat}] {java[7:]}\n      gold {cs}\n      got  {got_id or '(unmatched) ' + reason}"
                          + (f"  [{got.reason}; {', '.join(got.evidence)}]" if got else ""))
    print(f"{'category':12s} {'gold':>5s} {'pairs':>5s} {'found':>6s} {'correct':>7s} {'precision':>9s} {'recall':>7s}")
    totals = {"type": Counter(), "method": Counter()}
    for cat in ("type", "type none") + CATEGORIES:
        c = stats.get(cat)
        if not c:
            continue
        totals["type" if cat.startswith("type") else "method"].update(c)
        _row(cat, c)
    for name, c in totals.items():
        _row(f"all {name}s", c)
    none = stats.get("none", Counter())
    renamed = stats.get("renamed", Counter()) + stats.get("moved", Counter()) + stats.get("retyped", Counter())
    print(f"no-counterpart methods matched: {none['predicted']} of {none['gold']}")
    print(f"renamed, retyped or moved recall: {_ratio(renamed['correct'], renamed['pairs'])}")
    print(f"mapping time: {seconds:.3f} s ({len(index.files('source'))} Java + {len(index.files('target'))} C# files)")
    if show_misses:
        print("misses and wrong matches:")
        print("\n".join(misses))
    return {"seconds": seconds}


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "-"


def _row(name: str, c: Counter) -> None:
    print(f"{name:12s} {c['gold']:5d} {c['pairs']:5d} {c['predicted']:6d} {c['correct']:7d} "
          f"{_ratio(c['correct'], c['predicted']):>9s} {_ratio(c['correct'], c['pairs']):>7s}")


def removal_check(source: Path, target: Path, gold: list[tuple[str, str, str]], n: int, seed: int = 11) -> None:
    """Cut n gold counterparts out of a copy of the C# tree; count the Java methods still matched."""
    with tempfile.TemporaryDirectory() as tmp:
        index = Index.open(Path(tmp) / "orig")
        index.build(source, target, progress=False)
        pairs = [(j, c) for kind, j, c in gold if kind == "method" and c != "-"]
        chosen = random.Random(seed).sample(sorted({c for _, c in pairs}), n)
        cut: dict[str, list[tuple[int, int]]] = {}
        for cid in chosen:
            m = index.method(cid)
            cut.setdefault(m.path, []).append((m.start_byte, m.end_byte))
        copy = Path(tmp) / "cs"
        shutil.copytree(target, copy)
        for path, ranges in cut.items():
            data = (copy / path).read_bytes()
            for start, end in sorted(ranges, reverse=True):
                data = data[:start] + data[end:]
            (copy / path).write_bytes(data)
        orphans = sorted({j for j, c in pairs if c in set(chosen)})
        index2 = Index.open(Path(tmp) / "cut")
        index2.build(source, copy, progress=False)
        mapping = build_mapping(index2)
        guessed = [(j, mapping.target_method(j)) for j in orphans if mapping.target_method(j) is not None]
        print(f"removal check: {n} C# counterparts cut out, {len(orphans)} Java methods left without one, "
              f"{len(guessed)} of them matched anyway (goal 0)")
        for j, m in guessed:
            print(f"  {j[7:]} -> {m.target_id[7:]}  [{m.confidence:.2f} {m.reason}; {', '.join(m.evidence)}]")


def rename_check(source: Path, target: Path, gold: list[tuple[str, str, str]], n: int, seed: int = 5) -> None:
    """Rename n gold C# types in a copy of the C# tree (declaration and every use); score their recovery."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        index = Index.open(Path(tmp) / "orig")
        index.build(source, target, progress=False)
        types = {j: c for kind, j, c in gold if kind == "type" and c != "-"}
        simple_count = Counter(index.type(c).name for c in types.values())
        pool = sorted(j for j, c in types.items() if simple_count[index.type(c).name] == 1
                      and index.type(c).outer_id is None and len(index.type(c).name) >= 6)
        chosen = rng.sample(pool, n)
        renames = {}
        for k, j in enumerate(chosen):
            old = index.type(types[j]).name
            renames[old] = f"{old}Renamed{k}" if k % 2 == 0 else f"Renamed{k}"
        pattern, mapping = _mapping_with_renames(source, target, renames, Path(tmp))

        def renamed_id(cid: str) -> str:
            return pattern.sub(lambda m: renames[m.group(1)], cid)

        found = sum(1 for j in chosen if (m := mapping.target_type(j)) and m.target_id == renamed_id(types[j]))
        wrong = sum(1 for j in chosen if (m := mapping.target_type(j)) and m.target_id != renamed_id(types[j]))
        pairs = [(j, c) for kind, j, c in gold if kind == "method" and c != "-" and index.method(j).type_id in chosen]
        got = sum(1 for j, c in pairs if (m := mapping.target_method(j)) and m.target_id == renamed_id(c))
        print(f"rename check: {n} C# types renamed (half X -> XRenamed<k>, half unrelated names): "
              f"{found} found, {wrong} wrong; their {len(pairs)} member pairs: {got} found")
        for j in chosen:
            m = mapping.target_type(j)
            if m is None or m.target_id != renamed_id(types[j]):
                print(f"  missed {j[7:]} -> {renamed_id(types[j])[7:]}: "
                      f"{m.target_id if m else mapping.unmatched_types.get(j)}")


def _mapping_with_renames(source: Path, target: Path, renames: dict[str, str], tmp: Path):
    """The mapping of `source` against a copy of `target` in `tmp` where each whole word `old` of
    `renames` is `new`, and the pattern that renamed them."""
    copy = tmp / "cs"
    shutil.copytree(target, copy)
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, renames)) + r")\b")
    for path in copy.rglob("*.cs"):
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        new = pattern.sub(lambda m: renames[m.group(1)], text)
        if new != text:
            path.write_text(new, encoding="utf-8", errors="surrogateescape")
    index = Index.open(tmp / "renamed")
    index.build(source, copy, progress=False)
    return pattern, build_mapping(index)


def rename_members_check(source: Path, target: Path, gold: list[tuple[str, str, str]], n: int,
                         seed: int = 7) -> None:
    """Give n gold C# methods unrelated names in a copy of the C# tree; count how many are still found."""
    with tempfile.TemporaryDirectory() as tmp:
        index = Index.open(Path(tmp) / "orig")
        index.build(source, target, progress=False)
        names = Counter(m.name for m in index.all_methods("target"))
        type_names = {t.name for t in index.types("target")}
        pairs = {c: j for kind, j, c in gold if kind == "method" and c != "-"}
        pool = sorted(c for c in pairs if (m := index.method(c)) is not None and m.kind == "method"
                      and names[m.name] == 1 and m.name not in type_names and len(m.name) >= 4)
        chosen = random.Random(seed).sample(pool, min(n, len(pool)))
        renames = {index.method(c).name: f"Zq{k}" for k, c in enumerate(chosen)}
        _, mapping = _mapping_with_renames(source, target, renames, Path(tmp))

        def renamed_id(cid: str) -> str:
            head, args = cid.split("(", 1) if "(" in cid else (cid, None)
            owner, name = head.rsplit(".", 1)
            return f"{owner}.{renames.get(name, name)}" + (f"({args}" if args is not None else "")

        found = wrong = 0
        for c in chosen:
            got = mapping.target_method(pairs[c])
            found += got is not None and got.target_id == renamed_id(c)
            wrong += got is not None and got.target_id != renamed_id(c)
            if got is None or got.target_id != renamed_id(c):
                why = got.target_id if got else mapping.unmatched_methods.get(pairs[c], "")
                print(f"  missed {pairs[c][7:]} -> {renamed_id(c)[7:]}: {why[:160]}")
        print(f"member rename check: {len(chosen)} C# methods renamed to unrelated names: {found} found, "
              f"{wrong} wrong")


def synthetic_timing() -> None:
    sys.path.insert(0, str(HERE))
    from bench_index import generate

    with tempfile.TemporaryDirectory() as tmp:
        java, cs = generate(Path(tmp), 1500, 1200)
        index = Index.open(Path(tmp) / "work")
        index.build(java, cs, progress=False)
        index.types("source")                       # load the snapshot outside the timing
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            m = build_mapping(index)
            runs.append(time.perf_counter() - started)
        print(f"synthetic pair ({len(index.files('source'))} Java + {len(index.files('target'))} C# files): "
              f"mapping {min(runs):.3f} s best of 3 (goal < 1 s); {len(m.method_matches)} method matches")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True, help="the Java checkout the gold file was made on")
    ap.add_argument("--target", required=True, help="the C# checkout the gold file was made on")
    ap.add_argument("--gold", default=str(DEFAULT_GOLD))
    ap.add_argument("--misses", action="store_true", help="list every miss and wrong match")
    ap.add_argument("--synthetic", action="store_true", help="also time the mapping of bench_index's pair")
    ap.add_argument("--rename", type=int, default=0, metavar="N",
                    help="also rename N random gold C# types in a copy and count how many are found")
    ap.add_argument("--rename-members", type=int, default=0, metavar="N",
                    help="also give N random gold C# methods unrelated names in a copy and count how many are found")
    ap.add_argument("--remove", type=int, default=0, metavar="N",
                    help="also cut N random gold counterparts out of a C# copy and count guesses")
    args = ap.parse_args(argv)
    gold = read_gold(Path(args.gold))
    with tempfile.TemporaryDirectory() as tmp:
        index = Index.open(Path(tmp))
        index.build(Path(args.source), Path(args.target), progress=False)
        index.types("source")
        score(index, gold, args.misses)
    if args.remove:
        removal_check(Path(args.source), Path(args.target), gold, args.remove)
    if args.rename:
        rename_check(Path(args.source), Path(args.target), gold, args.rename)
    if args.rename_members:
        rename_members_check(Path(args.source), Path(args.target), gold, args.rename_members)
    if args.synthetic:
        synthetic_timing()
    return 0


if __name__ == "__main__":
    sys.exit(main())
