"""Java NIO's typed views over a byte buffer, as ports write them (translator/byte_views.py): HdrHistogram's
`buffer.asLongBuffer().get(counts, 0, length)` had no counterpart in HdrHistogram.NET's own ByteBuffer (getLong,
putLong, no views) and was emitted as it is (CS1061 AsLongBuffer, CS0246 LongBuffer)."""
from __future__ import annotations

import pytest

from repotrans.index.model import Method, Param
from repotrans.translator.byte_views import element_accessors
from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver
from repotrans.translator.steps import project_types
from repotrans.translator.tool_outputs import TargetType
from tests.support.policy_harness import java_and_shell_outputs, needs_toolchains

HISTOGRAM_READ = ("void fillCountsArrayFromBuffer(final ByteBuffer buffer, final int length) {"
                  " buffer.asLongBuffer().get(counts, 0, length); }")
ATOMIC_READ = ("void fillCountsArrayFromBuffer(ByteBuffer buffer, int length) { LongBuffer logbuffer = buffer.asLongBuffer();"
               " for (int i = 0; i < length; i++) { counts.lazySet(i, logbuffer.get()); } }")


def _port_buffer() -> ContextResolver:
    """HdrHistogram.NET's view of ByteBuffer: Java's element accessors under Java's names, no views."""
    buffer = TargetType("ByteBuffer", methods=["public long getLong()", "public void putLong(long value)",
                                               "public int getInt()", "public void putInt(int value)"])
    return ContextResolver("Histogram", {"Histogram": TargetType("Histogram"), "ByteBuffer": buffer})


def _method(signature: str, body: str) -> Method:
    return Method(id="source:p.H.f(ByteBuffer, int)", side="source", type_id="source:p.H", kind="method", name="f",
                  params=[Param("buffer", "ByteBuffer"), Param("length", "int")], return_type="void", modifiers=[],
                  annotations=[], type_params=[], signature=signature, body=body, path="H.java", start_line=1,
                  end_line=1, start_byte=0, end_byte=0)


def test_a_bulk_read_of_a_view_is_a_loop_of_the_buffers_own_reads():
    resolver = _port_buffer()
    java = element_accessors(HISTOGRAM_READ, set(resolver.members("ByteBuffer")))
    code = translate_method(java, resolver, "public override void fillCountsArrayFromBuffer(ByteBuffer buffer, int length)")
    assert "counts[i] = buffer.getLong();" in code and "for (int i = 0; i < length; i++)" in code, code
    assert "AsLongBuffer" not in code and "LongBuffer" not in code, code


def test_a_local_view_read_element_by_element_is_the_buffer_itself():
    code = translate_method(element_accessors(ATOMIC_READ), _port_buffer())
    assert "ByteBuffer logbuffer = buffer;" in code and "logbuffer.getLong()" in code and "LongBuffer " not in code, code


def test_a_bulk_write_from_an_offset_and_a_fresh_index_name():
    java = "void put(ByteBuffer b, int[] i, int from, int n) { b.asIntBuffer().put(i, from + 1, n); }"
    code = translate_method(element_accessors(java), _port_buffer())
    assert "for (int i1 = 0; i1 < n; i1++)" in code and "b.putInt(i[(from + 1) + i1]);" in code, code


CACHED_WRITE = """void fillBufferFromCountsArray(ByteBuffer buffer, int length) {
    if ((cachedDstLongBuffer == null) ||
            (buffer != cachedDstByteBuffer) ||
            (buffer.position() != cachedDstByteBufferPosition)) {
        cachedDstByteBuffer = buffer;
        cachedDstByteBufferPosition = buffer.position();
        cachedDstLongBuffer = buffer.asLongBuffer();
    }
    cachedDstLongBuffer.rewind();
    cachedDstLongBuffer.put(counts, 0, length);
}"""


def test_a_view_cached_in_fields_the_port_lacks_is_the_buffer_written_where_it_is():
    """HdrHistogram's output view, cached while the buffer and its position are the same and rewound before each
    write, is the buffer written from where it is; HdrHistogram.NET has none of the three cache fields."""
    code = translate_method(element_accessors(CACHED_WRITE, set(), {"counts", "fillBufferFromCountsArray"}),
                            _port_buffer())
    assert "cached" not in code and "buffer.putLong(counts[i]);" in code and "Rewind" not in code, code


def test_a_view_the_port_has_or_one_used_otherwise_is_kept():
    """A port whose ByteBuffer has AsLongBuffer keeps the view; a cache the port has (its fields), or whose
    C# class the context does not describe, stays as Java wrote it, as does a local view rewound."""
    assert element_accessors(HISTOGRAM_READ, {"AsLongBuffer", "GetLong"}) == HISTOGRAM_READ
    kept = {"counts", "cachedDstLongBuffer", "_cachedDstByteBuffer", "CachedDstByteBufferPosition"}
    assert element_accessors(CACHED_WRITE, set(), kept) == CACHED_WRITE
    assert element_accessors(CACHED_WRITE, set(), None) == CACHED_WRITE
    effect = CACHED_WRITE.replace("cachedDstByteBuffer = buffer;", "cachedDstByteBuffer = next(buffer);")
    assert element_accessors(effect, set(), {"counts"}) == effect
    rewound = "void f(ByteBuffer b, long[] xs) { LongBuffer v = b.asLongBuffer(); v.rewind(); v.get(xs, 0, 2); }"
    assert element_accessors(rewound) == rewound


def test_a_method_object_keeps_its_signature_and_rewrites_its_body():
    method = _method("void f(ByteBuffer buffer, int length)", "{ buffer.asLongBuffer().get(counts, 0, length); }")
    rewritten = element_accessors(method)
    assert rewritten.signature == method.signature
    assert rewritten.body == "{ for (int i = 0; i < length; i++) { counts[i] = buffer.getLong(); } }"


def test_a_jdk_name_the_table_does_not_map_is_looked_up_as_the_ports_own():
    """java.nio's ByteBuffer is not in the table: the port's own class of that name is looked up (its getLong,
    as the port spells it); Calendar, which the table maps, is still the JDK's."""
    java = _method("void f(ByteBuffer b, Calendar c)", "{ b.asLongBuffer().get(xs, 0, 1); c.getTime(); }")
    used = project_types(java, jdk_names=frozenset({"ByteBuffer", "Calendar"}))
    assert "ByteBuffer" in used and "Calendar" not in used


ROUND_TRIP = """import java.nio.ByteBuffer;
import java.nio.LongBuffer;

public class Views {
    static long[] counts = new long[4];

    static void fillCountsArrayFromBuffer(ByteBuffer buffer, int length) {
        buffer.asLongBuffer().get(counts, 0, length);
    }

    // HdrHistogram's cached output view: fields C# does not declare (the harness translates methods only)
    static LongBuffer cachedDstLongBuffer = null;
    static ByteBuffer cachedDstByteBuffer = null;
    static int cachedDstByteBufferPosition = 0;

    static void fillBufferFromCountsArray(ByteBuffer buffer, int length) {
        if ((cachedDstLongBuffer == null) || (buffer != cachedDstByteBuffer)
                || (buffer.position() != cachedDstByteBufferPosition)) {
            cachedDstByteBuffer = buffer;
            cachedDstByteBufferPosition = buffer.position();
            cachedDstLongBuffer = buffer.asLongBuffer();
        }
        cachedDstLongBuffer.rewind();
        cachedDstLongBuffer.put(counts, 0, length);
    }

    static long sum(ByteBuffer buffer, int length) {
        LongBuffer view = buffer.asLongBuffer();
        long total = 0;
        for (int i = 0; i < length; i++) {
            total += view.get();
        }
        return total;
    }

    public static void main(String[] args) {
        ByteBuffer b = ByteBuffer.allocate(32);
        b.putLong(7L); b.putLong(-3L); b.putLong(1L << 40); b.putLong(0L);
        b.rewind();
        fillCountsArrayFromBuffer(b, 3);
        System.out.println("read: " + counts[0] + " " + counts[1] + " " + counts[2] + " " + counts[3]);
        b.rewind();
        System.out.println("sum: " + sum(b, 3));
        ByteBuffer out = ByteBuffer.allocate(24);
        fillBufferFromCountsArray(out, 3);
        out.rewind();
        System.out.println("written: " + out.getLong() + " " + out.getLong() + " " + out.getLong());
    }
}
"""

# HdrHistogram.NET's ByteBuffer, as a port writes it: big-endian element accessors over an array, no views.
SHELL = """using System;

public class ByteBuffer
{
    private readonly byte[] bytes; private int position;
    public ByteBuffer(int capacity) { bytes = new byte[capacity]; }
    public long getLong() { long v = 0; for (int k = 0; k < 8; k++) v = (v << 8) | bytes[position++]; return v; }
    public void putLong(long value) { for (int k = 7; k >= 0; k--) bytes[position++] = (byte)(value >> (8 * k)); }
    public void rewind() { position = 0; }
}

public class Views
{
    static long[] counts = new long[4];

//@METHODS@

    public static void Main(string[] args)
    {
        ByteBuffer b = new ByteBuffer(32);
        b.putLong(7L); b.putLong(-3L); b.putLong(1L << 40); b.putLong(0L);
        b.rewind();
        FillCountsArrayFromBuffer(b, 3);
        Console.WriteLine("read: " + counts[0] + " " + counts[1] + " " + counts[2] + " " + counts[3]);
        b.rewind();
        Console.WriteLine("sum: " + Sum(b, 3));
        ByteBuffer output = new ByteBuffer(24);
        FillBufferFromCountsArray(output, 3);
        output.rewind();
        Console.WriteLine("written: " + output.getLong() + " " + output.getLong() + " " + output.getLong());
    }
}
"""


@needs_toolchains
@pytest.mark.slow
def test_the_views_read_what_java_reads(tmp_path, monkeypatch):
    """Java's views and the port's element reads and writes print the same values (real java, mcs, mono). The
    one difference ports accept: Java's view leaves the buffer's position where it was, the port's writes advance
    it (here the buffer is rewound after each; HdrHistogram's compressing caller reads the whole array())."""
    import tests.support.policy_harness as harness

    resolver = _port_buffer()
    plain = harness.translate_method
    monkeypatch.setattr(harness, "translate_method",
                        lambda java, r: plain(element_accessors(java, set(), {"counts", "sum"}), r))
    expected, actual, code = java_and_shell_outputs(ROUND_TRIP, "Views", SHELL, resolver, tmp_path)
    assert expected["read"] == ["7 -3 1099511627776 0"] and expected["sum"] == ["1099511627780"]
    assert expected["written"] == ["7 -3 1099511627776"]
    assert actual == expected, code
