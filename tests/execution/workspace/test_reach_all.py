"""Every test's reach in one search (CallGraph.reach_all): the same tests as one forward search per test, in
an order that does not depend on the process (issue 48). Real index over the sample port (tree-sitter only)."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from repotrans.execution.workspace.reach import Reachability, reaching_tests
from repotrans.execution.workspace.selection import index_tests
from repotrans.index.store import Index

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "datasets" / "sample"
GOLDEN = ROOT / "tests" / "fixtures" / "reach" / "sample_selections.json"
ORDER = """
import json, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.execution.workspace.test_reach_all import selections
print(json.dumps(selections(Path(sys.argv[1]))))
"""


class _Ws:
    def __init__(self, root: Path):
        self.root = root


def _sample(tmp: Path):
    index = Index.open(tmp / "wd")
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    return index, index_tests(_Ws(tmp), {"Acme.Geo.Tests": SAMPLE / "csharp" / "tests" / "Acme.Geo.Tests"})


def selections(tmp: Path) -> dict[str, list[str]]:
    """Each target member of the sample -> its covering tests, nearest first."""
    index, fixtures = _sample(tmp)
    reach = Reachability()
    try:
        return {m.id: reaching_tests(fixtures, lambda starts: reach.reaching(index, starts), m.id)[0]
                for m in index.all_methods("target") if not m.path.startswith("tests/")}
    finally:
        index.close()


def test_every_member_selects_the_tests_one_forward_search_per_test_selected(tmp_path):
    """The golden holds, for each of the sample's 186 target members, the covering tests that one forward search
    per test selected before this search replaced it; the one search for all tests selects the same."""
    golden = json.loads(GOLDEN.read_text())["selections"]
    found = {mid: [len(tests), hashlib.sha256("\n".join(sorted(tests)).encode()).hexdigest()[:16]]
             for mid, tests in selections(tmp_path).items()}
    assert found == golden
    assert sum(1 for count, _ in found.values() if count) == 184


def test_each_start_set_reaches_alone_what_it_reaches_among_all(tmp_path):
    """No start set's bit leaks into another's: every test's reach and distances computed among all of the
    sample's start sets are those it has alone."""
    index, fixtures = _sample(tmp_path)
    reach = Reachability()
    graph, names, _ = reach._state(index)
    starts = [reach._start_tokens(index, names, frozenset(set(idents) | set(fx["shared"])), (key.split(":", 1)[1],))
              for key, fx in sorted(fixtures.items()) for idents in fx["tests"].values()]
    together = graph.reach_all(starts)
    for i, start in enumerate(starts):
        mine = {mid: level for mid, parts in together.items() for level, bits in parts if bits >> i & 1}
        assert mine == graph.distances(start)
    assert len(starts) > 20 and any(together.values())
    index.close()


def test_the_nearest_first_order_is_the_same_in_every_process(tmp_path):
    """Two processes with different string hashing order every member's tests the same way (the forward search
    visited tokens in set order: a type named in the same step as the member's name could count one call
    more or less, so the order of equals could change from one run to the next)."""
    script = ORDER.format(root=str(ROOT))
    runs = []
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", script, str(tmp_path / seed)], capture_output=True, text=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}, cwd=ROOT, check=True)
        runs.append(json.loads(out.stdout))
    assert runs[0] == runs[1] and len(runs[0]) == 186


def test_a_question_about_fewer_tests_searches_nothing_again_and_answers_as_a_fresh_search(tmp_path, monkeypatch):
    """Dataset validation searches every test file's reach before the base build says which compile; the
    selections after it ask about the tests it kept (here: one fixture left out). Their token sets are all
    searched: no reach_all runs again, and every member's tests are those a fresh search selects (issue 48)."""
    from repotrans.execution.workspace.reach import CallGraph

    index, fixtures = _sample(tmp_path)
    kept = dict(sorted(fixtures.items())[1:])
    searched = []
    original = CallGraph.reach_all
    monkeypatch.setattr(CallGraph, "reach_all", lambda self, starts: searched.append(len(starts)) or original(self, starts))
    ahead = Reachability()
    reaching_tests(fixtures, lambda starts: ahead.reaching(index, starts), "")
    members = [m.id for m in index.all_methods("target") if not m.path.startswith("tests/")]
    after = {mid: reaching_tests(kept, lambda starts: ahead.reaching(index, starts), mid) for mid in members}
    assert len(searched) == 1
    fresh = Reachability()
    assert after == {mid: reaching_tests(kept, lambda starts: fresh.reaching(index, starts), mid) for mid in members}
    assert len(searched) == 2 and searched[1] < searched[0]
    assert any(tests for tests, _, _ in after.values())
    index.close()
