"""History as mapping evidence (mapping/history.py, SyncSteps.pin_history): a Java member whose id changed
upstream keeps the counterpart the old mapping gave it, under the port's own name, in the new revision's
mapping; so a caller's edit names it as the port does."""
from __future__ import annotations

from types import SimpleNamespace

from repotrans.sync.diff import Change
from repotrans.sync.steps import SyncSteps
from repotrans.index.store import Index
from repotrans.mapping.history import history_overrides
from repotrans.mapping.load import load_mapping
from repotrans.translator.edit_names import resolver_for_pair
from repotrans.translator.java2cs import translate_method

OLD, NEW = "source:p.Util.join(int, int)", "source:p.Util.combine(int, int)"
PORT = "target:Z.Util.Merge(int, int)"


def _index(tmp_path):
    """The new revision's Java (join renamed combine upstream, its body changed) and the port, which calls it
    Merge (the old body) and has a port-only Mix whose body is the new Java's."""
    java, cs = tmp_path / "java" / "p", tmp_path / "cs"
    java.mkdir(parents=True)
    cs.mkdir()
    (java / "Util.java").write_text("package p;\npublic class Util {\n"
                                    "  static int combine(int a, int b) { return a * 31 + b; }\n}\n")
    (java / "Calc.java").write_text("package p;\npublic class Calc {\n"
                                    "  int sum(int a, int b) { return Util.combine(a, b) + 1; }\n}\n")
    (cs / "Util.cs").write_text("namespace Z\n{\n    public static class Util\n    {\n"
                                "        public static int Merge(int a, int b) { return a * 17 + b; }\n"
                                "        public static int Mix(int a, int b) { return a * 31 + b; }\n    }\n}\n")
    (cs / "Calc.cs").write_text("namespace Z\n{\n    public class Calc\n    {\n"
                                "        public int Sum(int a, int b) { return 0; }\n    }\n}\n")
    index = Index.open(tmp_path / "index")
    index.build(tmp_path / "java", cs, progress=False)
    return index


def test_a_member_renamed_upstream_keeps_its_counterpart_in_the_new_mapping(tmp_path):
    index = _index(tmp_path)
    try:
        plain = load_mapping(index)
        found = plain.target_method(NEW)
        assert found is None or found.target_id != PORT        # names and bodies alone do not pair them
        steps = SyncSteps(index=index, after=None, work=None, runner=None, config=SimpleNamespace(mapping=None),
                          report=SimpleNamespace(current_target=lambda c, t: t), say=None, old_tree=None,
                          new_tree=None, old_index=None, old_mapping=None, ledger=None)
        steps.pin_history([Change("renamed", OLD, NEW, 0.9), Change("body", "source:p.Calc.sum(int, int)",
                                                                   "source:p.Calc.sum(int, int)", 0.9)],
                          {OLD: PORT, "source:p.Calc.sum(int, int)": "target:Z.Calc.Sum(int, int)"})
        assert steps.history.methods == {"p.Util.combine(int, int)": "Z.Util.Merge(int, int)"}
        mapping = steps.mapping()
        assert mapping.target_method(NEW).target_id == PORT
        caller = index.method("source:p.Calc.sum(int, int)")
        target = index.method("target:Z.Calc.Sum(int, int)")
        assert "Util.Merge(a, b) + 1" in translate_method(caller, resolver_for_pair(index, mapping, caller, target),
                                                          target)
    finally:
        index.close()


def test_only_members_whose_java_id_changed_are_pinned():
    pinned = history_overrides([("source:p.A.f(int)", "source:p.A.f(int)", "target:Z.A.F(int)"),
                                ("source:p.A.g(int)", "source:p.A.g(long)", "target:Z.A.G(int)"),
                                ("source:p.A.h()", None, "target:Z.A.H()")])
    assert pinned.methods == {"p.A.g(long)": "Z.A.G(int)"} and pinned.origin == "the upstream history"
