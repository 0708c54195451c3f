"""A Java tool class's `main(String[])` whose work the port's program runs from its own `Main`: parity
names it a signature difference (with the entry point), never missing, and `--create-missing` adds no
second entry point; a `main` whose type the port's program never uses stays missing and is added."""
from __future__ import annotations

from repotrans.mapping.load import load_mapping
from repotrans.parity.api import parity
from repotrans.runs.batch_plan import plan_batch
from repotrans.skeleton.members import plan_missing_members
from tests.support.indexes import stranger_pair_with


JAVA_FILES = {
    "RingTool.java": "package com.example.ring;\n\npublic class RingTool {\n    public static void run(int n) {\n"
                     "    }\n\n    public static void main(String[] args) {\n        run(args.length);\n    }\n}\n",
    "Dump.java": "package com.example.ring;\n\npublic class Dump {\n    public static String show(int n) {\n"
                 "        return \"\" + n;\n    }\n\n    public static void main(String... args) {\n"
                 "        System.out.println(show(1));\n    }\n}\n",
}
CS_FILES = {
    "RingTool.cs": "namespace Example.Ring\n{\n    public static class RingTool\n    {\n"
                   "        public static void Run(int n)\n        {\n        }\n    }\n}\n",
    "Dump.cs": "namespace Example.Ring\n{\n    public static class Dump\n    {\n"
               "        public static string Show(int n)\n        {\n            return \"\" + n;\n        }\n    }\n}\n",
    "Program.cs": "namespace Example.Ring\n{\n    internal class Program\n    {\n"
                  "        private static void Main(string[] args)\n        {\n            RunTool(args);\n        }\n\n"
                  "        private static void RunTool(string[] args)\n        {\n            RingTool.Run(args.Length);\n"
                  "        }\n    }\n}\n",
}


def test_a_main_the_ports_program_runs_is_no_missing_member_and_never_a_second_entry_point(tmp_path):
    with stranger_pair_with(tmp_path, JAVA_FILES, CS_FILES) as index:
        mapping = load_mapping(index)
        report = parity(index, mapping)
        plan = plan_missing_members(index, mapping, ["com.example.ring.*"])
        dry_run = plan_batch(index, mapping)
    entries = {e.java: (e.category, e.cs, e.detail) for g in report.groups for e in g.entries if e.java}
    assert entries["com.example.ring.RingTool.main(String[])"] == (
        "signature", "Example.Ring.Program.Main(string[])",
        ("a program entry point: the port's program starts at Example.Ring.Program.Main(string[]), whose class "
         "uses Example.Ring.RingTool",))
    assert entries["com.example.ring.Dump.main(String...)"][:2] == ("missing", None)
    assert {k: v for k, v in plan.skipped.items() if "main" in k} == {
        "com.example.ring.RingTool.main(String[])": "the port's program starts at Example.Ring.Program.Main(string[]), "
                                                   "which runs it"}
    assert [list(a.members) for a in plan.additions if a.cs_type == "Example.Ring.Dump"] == [["Dump.main(String...)"]]
    # the dry run's "no C# member" list agrees: Dump's main is missing, RingTool's is what Program runs
    assert {cs: java for cs, java in dry_run.missing_members.items() if "Dump" in cs or "RingTool" in cs} == {
        "Example.Ring.Dump": ["main(String...)"]}
