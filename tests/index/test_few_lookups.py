"""A process that makes a few lookups (a fingerprint, one method) reads them by SQL, not the whole
snapshot; the answers are the snapshot's, and many lookups load the snapshot after all."""
from __future__ import annotations

from pathlib import Path

from repotrans.index import store
from repotrans.index.store import Index

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


def test_few_lookups_read_rows_and_agree_with_the_snapshot(tmp_path):
    built = Index.open(tmp_path)
    built.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    built.close()
    fresh, full = Index.open(tmp_path, must_exist=True), Index.open(tmp_path, must_exist=True)
    full._snap()
    assert fresh.files("source") == full.files("source") and fresh.files("target") == full.files("target")
    some = full.all_methods("source")[:3] + full.all_methods("target")[-3:]
    assert [fresh.method(m.id) for m in some] == [full.method(m.id) for m in some]
    assert fresh.method("source:no.such.Method()") is None
    assert fresh._snapshot is None                               # nothing loaded for these few lookups
    for _ in range(store.FEW_LOOKUPS):
        fresh.method(some[0].id)
    assert fresh._snapshot is not None and fresh.method(some[0].id) == full.method(some[0].id)
