"""sync.md lists only the upstream commits that change a member of the Java source; the others (a pom, docs,
another module) are counted in one line. A wide range of a real library listed 34 such commits, each
'0 ported, 0 for a human'."""
from __future__ import annotations

from repotrans.sync.diff import Change
from repotrans.sync.history import Commit
from repotrans.sync.report import Outcome, SyncReport


def test_commits_that_change_no_java_member_are_counted_in_one_line():
    change = Change("changed", "source:org.acme.Ring.add(int)", "source:org.acme.Ring.add(int)", commits=("bbbbbbb",))
    commits = [Commit("a" * 40, "pom: bump junit", ()), Commit("b" * 40, "Ring: add checks", ("src/Ring.java",)),
               Commit("c" * 40, "docs", ())]
    report = SyncReport(commits=commits, changes=[change], revisions=("v1", "v2"))
    report.add(Outcome(change, "target:Acme.Ring.Add(int)", "edit", "passed"))
    md = report.render()
    assert "## bbbbbbb Ring: add checks" in md and "## aaaaaaa" not in md and "## ccccccc" not in md
    assert "2 commit(s) of the range change no member of the Java source: left out (aaaaaaa, ccccccc)" in md
    assert [c["sha"][:7] for c in report.to_json()["commits"]] == ["aaaaaaa", "bbbbbbb", "ccccccc"]
