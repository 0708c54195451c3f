"""The trajectory file (agents.trajectory): what one run wrote is read back whole, whatever its strings hold."""
from __future__ import annotations

from repotrans.agents.trajectory import Trajectory, read_entries

# what str.splitlines() also ends a line at; JSON written with ensure_ascii=False holds them raw
SEPARATORS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def test_entries_holding_unicode_line_separators_read_back_whole(tmp_path):
    """Every ZXing.Net trajectory holds a U+0085 (NEL) in a tool's answer: `ablate` died in its HTML report
    reading it back ("Unterminated string"), after the run itself had finished."""
    t = Trajectory(tmp_path / "run")
    t.record("tool", output=f"a{SEPARATORS}b")
    t.record("done", code="return 1;")
    assert [e["kind"] for e in t.entries()] == ["tool", "done"]
    assert read_entries(t.path)[0]["output"] == f"a{SEPARATORS}b"
