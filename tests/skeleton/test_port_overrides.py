"""A regenerated base class the port's own subclasses override (HdrHistogram's AbstractHistogramIterator, deleted
with two of its subclasses): its members are virtual where an override needs it and take the access the port's
overrides declare, it bridges Java's Iterator<T> to the IEnumerator<T> the JDK table writes, a subclass regenerated
with it goes where it goes, and a getter the port reads as a property of its own name becomes that property. Real
tree-sitter, real mcs."""
from __future__ import annotations

import shutil
import textwrap

import pytest

from repotrans.skeleton.create import create_skeleton
from tests.support.skeleton_pair import copy_pair, index_pair

needs_mcs = pytest.mark.skipif(shutil.which("mcs") is None, reason="mcs not installed")

WALKER = """\
    package org.demo.zoo;

    import java.util.Iterator;

    public abstract class Walker implements Iterator<String> {
        int step;

        public boolean hasNext() {
            return step < 3;
        }

        public String next() {
            incrementStep();
            return "s" + step;
        }

        abstract void incrementStep();

        public int position() {
            return step;
        }

        public void rewind() {
            step = 0;
        }

        public String label() {
            return "walk";
        }

        public void remove() {
            throw new UnsupportedOperationException();
        }
    }
    """

SLOW = """\
    package org.demo.zoo;

    public class SlowWalker extends Walker {
        void incrementStep() {
            step += 1;
        }

        public boolean hasNext() {
            return step < 2;
        }
    }
    """

FAST_CS = """\
    namespace Demo.Zoo
    {
        public class Stroll : Walker
        {
            protected override void IncrementStep() { step += 2; }
            public override bool HasNext { get { return step < 4; } }
        }

        public static class Tally
        {
            public static int Count(Walker w)
            {
                int n = 0;
                while (w.MoveNext()) { n += w.Current.Length; }
                return n;
            }
        }
    }
    """


@needs_mcs
def test_a_regenerated_iterator_base_compiles_with_the_ports_overrides_and_callers(tmp_path):
    java, cs = copy_pair(tmp_path)
    (java / "org" / "demo" / "zoo" / "Walker.java").write_text(textwrap.dedent(WALKER))
    (java / "org" / "demo" / "zoo" / "SlowWalker.java").write_text(textwrap.dedent(SLOW))
    (cs / "src" / "Demo.Zoo" / "Tally.cs").write_text(textwrap.dedent(FAST_CS))
    index = index_pair(tmp_path, java, cs)
    result = create_skeleton(index, ["org.demo.zoo.Walker", "org.demo.zoo.SlowWalker"])
    assert result.check.compiled, result.render()
    assert result.check.dropped == []
    text = (cs / "src" / "Demo.Zoo" / "Walker.cs").read_text()
    assert "public virtual bool HasNext" in text                      # Stroll overrides it (a property here)
    assert "protected abstract void IncrementStep();" in text         # Stroll's access, not Java's default
    assert "public bool MoveNext() { if (!HasNext) return false; Current = Next(); return true; }" in text
    assert "public string Current { get; private set; }" in text
    slow = (cs / "src" / "Demo.Zoo" / "SlowWalker.cs").read_text()
    assert "protected override void IncrementStep()" in slow and "public override bool HasNext" in slow


@needs_mcs
def test_a_getter_the_port_reads_as_its_property_compiles(tmp_path):
    java, cs = copy_pair(tmp_path)
    (java / "org" / "demo" / "zoo" / "Registry.java").write_text(textwrap.dedent("""\
        package org.demo.zoo;

        class Registry {
            private static final Registry ONE = new Registry();

            private Registry() {
            }

            static Registry getInstance() {
                return ONE;
            }

            String[] names(char c) {
                return new String[] {String.valueOf(c)};
            }
        }
        """))
    (cs / "src" / "Demo.Zoo" / "Lookup.cs").write_text(textwrap.dedent("""\
        namespace Demo.Zoo
        {
            internal static class Lookup
            {
                internal static string[] Of(char c) { return Registry.Instance.Names(c); }
            }
        }
        """))
    index = index_pair(tmp_path, java, cs)
    result = create_skeleton(index, ["org.demo.zoo.Registry"])
    assert result.check.compiled, result.render()
    text = (cs / "src" / "Demo.Zoo" / "Registry.cs").read_text()
    assert "static Registry Instance { get {" in text and "GetInstance" not in text


def test_a_subclass_regenerated_with_its_superclass_goes_where_the_superclass_goes(tmp_path):
    """HdrHistogram's PercentileIterator, deleted with AbstractHistogramIterator: its superclass has no counterpart
    to give a namespace, so it follows where the superclass goes (HdrHistogram.NET.Iteration, named by the port's
    iterators there), not the package's plurality namespace."""
    from repotrans.index.store import Index
    from repotrans.mapping.load import build_mapping
    from repotrans.skeleton.generate import plan_skeleton
    from tests.support.indexes import write_tree

    java = {"org/h/A.java": "package org.h;\npublic class A { }\n",
            "org/h/B.java": "package org.h;\npublic class B { }\n",
            "org/h/D.java": "package org.h;\npublic class D extends Base { }\n",
            "org/h/Base.java": "package org.h;\npublic abstract class Base { }\n",
            "org/h/Sub.java": "package org.h;\npublic class Sub extends Base { }\n"}
    cs = {"H/A.cs": "namespace H.Net { public class A { } }", "H/B.cs": "namespace H.Net { public class B { } }",
          "H/Iteration/D.cs": "namespace H.Net.Iteration { public class D { } }"}
    write_tree(tmp_path / "j", java)
    write_tree(tmp_path / "c", cs)
    index = Index.open(tmp_path / "w")
    index.build(tmp_path / "j", tmp_path / "c", progress=False)
    plan = plan_skeleton(index, build_mapping(index), ["org.h.*"])
    placed = {f.java_types[0]: (f.namespace, f.path) for f in plan.files}
    assert placed["org.h.Base"] == ("H.Net.Iteration", "H/Iteration/Base.cs")      # named by D
    assert placed["org.h.Sub"] == ("H.Net.Iteration", "H/Iteration/Sub.cs")        # its superclass's


@needs_mcs
def test_a_base_call_the_ports_base_cannot_take_goes_through_javas_delegation(tmp_path):
    """HdrHistogram's copy constructor Histogram(AbstractHistogram) calls super(source), and Java's
    AbstractHistogram(AbstractHistogram) delegates with this(source.getLowest...(), ...); HdrHistogram.NET's base
    has only the value constructor (CS1729, the copy constructor left out and copy() with it). The call now goes
    to the constructor Java delegates to, and the report names what that leaves out."""
    java, cs = copy_pair(tmp_path)
    zoo = java / "org" / "demo" / "zoo"
    (zoo / "Tally.java").write_text(textwrap.dedent("""\
        package org.demo.zoo;

        public abstract class Tally {
            final int size;
            String tag;

            public Tally(int size) {
                this.size = size;
            }

            Tally(Tally source) {
                this(source.getSize() * 2);
                this.tag = source.tag;
            }

            public int getSize() {
                return size;
            }
        }
        """))
    (zoo / "Count.java").write_text(textwrap.dedent("""\
        package org.demo.zoo;

        public class Count extends Tally {
            public Count(int size) {
                super(size);
            }

            private Count(Tally source) {
                super(source);
            }

            public Count copy() {
                return new Count(this);
            }
        }
        """))
    (cs / "src" / "Demo.Zoo" / "Tally.cs").write_text(textwrap.dedent("""\
        namespace Demo.Zoo
        {
            public abstract class Tally
            {
                internal readonly int size;
                public Tally(int size) { this.size = size; }
                public int GetSize() { return size; }
            }
        }
        """))
    index = index_pair(tmp_path, java, cs)
    result = create_skeleton(index, ["org.demo.zoo.Count"])
    assert result.check.compiled, result.render()
    text = (cs / "src" / "Demo.Zoo" / "Count.cs").read_text()
    assert "Count(Tally source) : base(source.GetSize() * 2)" in text
    assert any("not carried: this.tag = source.tag;" in r for r in result.check.reshaped)
