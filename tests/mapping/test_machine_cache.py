"""Mappings kept per machine (mapping.machine_cache): an index of the same files made in another folder reads
the mapping instead of building it; a changed file, or a kept file that does not read, builds it again."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from repotrans.index.store import Index
from repotrans.mapping import load as load_module
from repotrans.mapping.load import load_mapping
from repotrans.mapping.machine_cache import KEEP, MachineMappings



def fresh_index(folder: Path, java: Path, cs: Path) -> Index:
    ix = Index.open(folder)
    ix.build(java, cs, progress=False)
    return ix


@pytest.fixture()
def builds(monkeypatch) -> list[int]:
    """Counts build_mapping's calls."""
    calls: list[int] = []
    real = load_module.build_mapping

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(load_module, "build_mapping", counted)
    return calls


def test_a_new_index_of_the_same_files_reads_the_machines_mapping(tmp_path, pair, builds):
    machine = MachineMappings.under(tmp_path / "cache")
    first = load_mapping(fresh_index(tmp_path / "a", *pair), machine=machine)
    again = load_mapping(fresh_index(tmp_path / "b", *pair), machine=machine)
    assert len(builds) == 1
    assert again.render(verbose=True) == first.render(verbose=True) and again.counts == first.counts
    assert list((tmp_path / "cache" / "mappings").glob("*.sqlite"))
    load_mapping(fresh_index(tmp_path / "c", *pair))               # no machine cache: built
    assert len(builds) == 2


def test_a_changed_file_or_a_kept_file_that_does_not_read_builds_it_again(tmp_path, pair, builds):
    machine = MachineMappings.under(tmp_path / "cache")
    load_mapping(fresh_index(tmp_path / "a", *pair), machine=machine)
    vector = pair[1] / "Geo" / "Vector.cs"
    vector.write_text(vector.read_text() + "\n// edited\n")
    load_mapping(fresh_index(tmp_path / "b", *pair), machine=machine)
    assert len(builds) == 2
    for kept in (tmp_path / "cache" / "mappings").glob("*.sqlite"):
        kept.write_bytes(b"not a database")
    assert load_mapping(fresh_index(tmp_path / "c", *pair), machine=machine).method_matches
    assert len(builds) == 3


def test_no_cache_root_keeps_nothing_and_the_oldest_files_go(tmp_path, pair, builds):
    assert MachineMappings.under(None).get("fp") is None
    MachineMappings.under(None).put("fp", load_mapping(fresh_index(tmp_path / "a", *pair)))
    machine = MachineMappings.under(tmp_path / "cache")
    mapping = load_mapping(fresh_index(tmp_path / "b", *pair))
    for n in range(KEEP + 2):
        machine.put(f"{n:040d}", mapping)
        time.sleep(0.01)                                              # past the clock's granularity
    kept = sorted(p.stem for p in (tmp_path / "cache" / "mappings").glob("*.sqlite"))
    assert len(kept) == KEEP and f"{KEEP + 1:040d}" in kept
