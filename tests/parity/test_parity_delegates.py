"""A Java single-method interface the port made a C# delegate: the index records the delegate as a type
whose one member is `Invoke`, the mapping pairs the interface with it and its method with `Invoke`, and
parity lists neither as missing (nor a method taking one as a signature difference)."""
from __future__ import annotations

from repotrans.mapping.load import load_mapping
from repotrans.parity.api import parity
from tests.support.indexes import stranger_pair_with


JAVA_FILES = {
    "Listener.java": "package com.example.ring;\n\n/** Hears each value counted. */\npublic interface Listener {\n"
                     "    void heard(int value);\n}\n",
    "Filter.java": "package com.example.ring;\n\npublic interface Filter {\n    boolean keeps(int value);\n\n"
                   "    default Filter negate() {\n        return v -> !keeps(v);\n    }\n}\n",
    "Tap.java": "package com.example.ring;\n\npublic class Tap {\n    public void listen(Listener l) {\n    }\n\n"
                "    public boolean pass(Filter f, int value) {\n        return f.keeps(value);\n    }\n}\n",
}
CS_FILES = {
    "Listener.cs": "namespace Example.Ring\n{\n    /// <summary>Hears each value counted.</summary>\n"
                   "    public delegate void Listener(int value);\n}\n",
    "Tap.cs": "namespace Example.Ring\n{\n    public class Tap\n    {\n        public delegate bool Filter(int value);\n\n"
              "        public void Listen(Listener l)\n        {\n        }\n\n"
              "        public bool Pass(Filter f, int value)\n        {\n            return f(value);\n        }\n    }\n}\n",
}


def test_a_delegate_is_a_type_paired_with_the_java_interface_and_present_in_parity(tmp_path):
    with stranger_pair_with(tmp_path, JAVA_FILES, CS_FILES) as index:
        delegates = sorted((t.id, t.kind, t.outer_id) for t in index.find_types("target", "Listener")
                           + index.find_types("target", "Filter"))
        assert delegates == [("target:Example.Ring.Listener", "delegate", None),
                             ("target:Example.Ring.Tap.Filter", "delegate", "target:Example.Ring.Tap")]
        invoke = [(m.id, m.return_type, m.body) for m in index.methods("target:Example.Ring.Listener")]
        assert invoke == [("target:Example.Ring.Listener.Invoke(int)", "void", None)]
        mapping = load_mapping(index)
        report = parity(index, mapping)
    assert mapping.target_type("source:com.example.ring.Listener").target_id == "target:Example.Ring.Listener"
    entries = {e.java: (e.category, e.cs) for g in report.groups for e in g.entries if e.java}
    assert {j: entries[j] for j in entries if j.split(".")[3] in ("Listener", "Filter", "Tap")} == {
        "com.example.ring.Listener": ("matched", "Example.Ring.Listener"),
        "com.example.ring.Listener.heard(int)": ("matched", "Example.Ring.Listener.Invoke(int)"),
        "com.example.ring.Filter": ("matched", "Example.Ring.Tap.Filter"),
        "com.example.ring.Filter.keeps(int)": ("matched", "Example.Ring.Tap.Filter.Invoke(int)"),
        "com.example.ring.Filter.negate()": ("missing", None),
        "com.example.ring.Tap": ("matched", "Example.Ring.Tap"),
        "com.example.ring.Tap.listen(Listener)": ("matched", "Example.Ring.Tap.Listen(Listener)"),
        "com.example.ring.Tap.pass(Filter, int)": ("matched", "Example.Ring.Tap.Pass(Filter, int)"),
    }
