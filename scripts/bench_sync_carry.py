"""How much of an upstream range `repotrans sync` can carry into a port: the member-level diff of the Java
side between two revisions and the share of changed members the old revision's mapping carries to a C#
member (no build, no test run: the first two columns of the sync measurement), per kind, with the time.

  python scripts/bench_sync_carry.py --source JAVA_GIT --since REV --until REV --java-dir core/src/main/java \
      --target CS_PORT_TREE

--target is the port's tree at the revision that follows --since (e.g. extracted with `git archive`).
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from repotrans.sync.diff import KINDS, diff_trees, read_tree
from repotrans.sync.history import export, resolve
from repotrans.index.store import Index
from repotrans.mapping.mapping import build_mapping


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True, type=Path)
    ap.add_argument("--since", required=True)
    ap.add_argument("--until", required=True)
    ap.add_argument("--java-dir", default="", help="the Java sources inside the repository (default: its root)")
    ap.add_argument("--target", required=True, type=Path)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-sync-"))
    try:
        started = time.time()
        since, until = resolve(args.source, args.since), resolve(args.source, args.until)
        before = export(args.source, since, tmp / "before") / args.java_dir
        after = export(args.source, until, tmp / "after") / args.java_dir
        changes = [c for c in diff_trees(read_tree(before), read_tree(after)) if c.member]
        t_diff = time.time() - started
        index = Index.open(tmp / "wd")
        index.build(before, args.target, progress=False)
        mapping = build_mapping(index)
        t_map = time.time() - started - t_diff
        kinds, carried = Counter(), Counter()
        for c in changes:
            kinds[c.kind] += 1
            if c.old_id and mapping.target_method(c.old_id) is not None:
                carried[c.kind] += 1
        index.close()
        print(f"{args.since} -> {args.until}: {len(changes)} changed Java members "
              f"(diff {t_diff:.1f} s, old revision's mapping {t_map:.1f} s)")
        print(f"{'kind':10} {'members':>8} {'carried':>8} {'share':>6}")
        for k in KINDS:
            if kinds[k]:
                share = f"{carried[k] / kinds[k]:.0%}" if k != "added" else "-"
                print(f"{k:10} {kinds[k]:8} {carried[k]:8} {share:>6}")
        with_old = sum(n for k, n in kinds.items() if k != "added")
        print(f"carried: {sum(carried.values())} of {with_old} changed members that existed before "
              f"({sum(carried.values()) / max(with_old, 1):.1%})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
