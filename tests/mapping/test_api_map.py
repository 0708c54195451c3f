"""The learned API map (issue 34): from the mapping's aligned method pairs, how the port writes Java
calls, constructions and constants. The fixture is cut from ZXing/ZXing.Net (BitArray's bounds checks
through a support class's factory, `Integer.MAX_VALUE` as `Int32.MaxValue`, `StringBuilder.append`)
and a private helper the port removed (`BitArray.words(size)`, replaced by its support class)."""
from __future__ import annotations

import json

from repotrans.mapping.api_cache import load_api_map
from repotrans.mapping.api_map import Choice, name_likeness
from repotrans.mapping.mapping_cache import fingerprint
from repotrans.mapping.overrides import MappingOverrides
from tests.support.indexes import mapped_pair

JAVA = {
    "com/google/zxing/common/BitArray.java": """package com.google.zxing.common;
public final class BitArray {
  private int[] bits;
  private int size;
  public BitArray(int size) { this.size = size; this.bits = new int[words(size)]; }
  private static int words(int size) { return (size + 31) / 32; }
  public boolean get(int i) {
    if (i < 0 || i >= size) { throw new IndexOutOfBoundsException(i); }
    return (bits[i / 32] & (1 << (i & 0x1F))) != 0;
  }
  public void set(int i) {
    if (i >= size) { throw new IndexOutOfBoundsException(i); }
    bits[i / 32] |= 1 << (i & 0x1F);
  }
  public void ensureCapacity(int size) {
    if (size > bits.length * 32) { int[] newBits = new int[words(size)]; bits = newBits; }
  }
  public int firstSet() {
    int best = Integer.MAX_VALUE;
    return best;
  }
  public String describe() {
    StringBuilder result = new StringBuilder(size);
    result.append('X');
    return result.toString();
  }
}
""",
}
CS = {
    "Common/BitArray.cs": """namespace ZXing.Common
{
   public sealed class BitArray
   {
      private int[] bits;
      private int size;
      public BitArray(int size) { this.size = size; this.bits = new int[SupportClass.WordCount(size)]; }
      public bool this[int i]
      {
         get
         {
            if (i < 0 || i >= size) { throw SupportClass.IndexOutOfRange(i); }
            return (bits[i >> 5] & (1 << (i & 0x1F))) != 0;
         }
      }
      public void set(int i)
      {
         if (i >= size) { throw SupportClass.IndexOutOfRange(i); }
         bits[i >> 5] |= 1 << (i & 0x1F);
      }
      public void ensureCapacity(int size)
      {
         if (size > bits.Length << 5) { int[] newBits = new int[SupportClass.WordCount(size)]; bits = newBits; }
      }
      public int firstSet()
      {
         int best = Int32.MaxValue;
         return best;
      }
      public System.String describe()
      {
         var result = new System.Text.StringBuilder(size);
         result.Append('X');
         return result.ToString();
      }
   }
   internal static class SupportClass
   {
      public static System.Exception IndexOutOfRange(int i) { return new System.ArgumentOutOfRangeException("i"); }
      public static int WordCount(int size) { return (size + 31) >> 5; }
   }
}
""",
}


def _api(tmp_path):
    mapping, index = mapped_pair(tmp_path, JAVA, CS)
    return load_api_map(index, mapping), mapping, index


def test_port_idioms_are_learned_with_counts_and_examples(tmp_path):
    api, mapping, _ = _api(tmp_path)
    choice = api.choose("new IndexOutOfBoundsException/1")
    assert choice == Choice("SupportClass.IndexOutOfRange({1})", 2, 2,
                            ("new IndexOutOfBoundsException(i)", "SupportClass.IndexOutOfRange(i)"))
    assert api.choose("Integer.MAX_VALUE").template == "Int32.MaxValue"
    assert api.choose("StringBuilder#append/1").template == "{0}.Append({1})"
    assert api.choose("new StringBuilder/1").template == "new System.Text.StringBuilder({1})"
    # the removed private helper: its call sites show the port's replacement
    assert api.choose("BitArray.words/1").template == "SupportClass.WordCount({1})"
    assert "BitArray.words/1" not in api.mapped          # no C# counterpart: the map answers for it
    assert "BitArray#set/1" in api.mapped                # a paired callee: the resolver answers for it
    shown = api.render(top=5)
    assert "      2  new IndexOutOfBoundsException/1  ->  SupportClass.IndexOutOfRange({1})" in shown


def test_a_task_never_sees_its_own_pair(tmp_path):
    api, mapping, _ = _api(tmp_path)
    get = "source:com.google.zxing.common.BitArray.get(int)"
    set_ = "source:com.google.zxing.common.BitArray.set(int)"
    assert api.without(get).choose("new IndexOutOfBoundsException/1").count == 1
    assert api.without(get, set_).choose("new IndexOutOfBoundsException/1") is None
    target = mapping.target_method("source:com.google.zxing.common.BitArray.firstSet()").target_id
    assert api.without(target).choose("Integer.MAX_VALUE") is None     # by the C# member's id too
    assert api.choose("new IndexOutOfBoundsException/1", min_count=3) is None


def test_cached_with_the_mapping_and_rebuilt_when_the_index_changes(tmp_path):
    api, mapping, index = _api(tmp_path)
    again = load_api_map(index, mapping)
    assert again.observations == api.observations and again.mapped == api.mapped
    stored = index.conn.execute("SELECT fingerprint FROM api_map_meta").fetchone()[0]
    assert stored == fingerprint(index, MappingOverrides())             # written under the mapping's key
    path = tmp_path / "c" / "Common" / "BitArray.cs"
    path.write_text(path.read_text().replace("Int32.MaxValue", "int.MaxValue"))
    index.build(tmp_path / "j", tmp_path / "c", progress=False)
    assert load_api_map(index, mapping).choose("Integer.MAX_VALUE").template == "int.MaxValue"


def test_name_likeness_reads_accessors_and_camel_words():
    assert name_likeness("getHeight", "Height") == 1.0
    assert name_likeness("length", "Length") == 1.0
    assert 0.5 < name_likeness("IndexOutOfBoundsException", "IndexOutOfRangeException") < 1.0
    assert name_likeness("size", "Count") == 0.0


def test_mapping_api_command_shows_counts_examples_and_records(tmp_path, capsys):
    from repotrans.cli.main import main

    _api(tmp_path)
    assert main(["--workdir", str(tmp_path / "w"), "mapping", "--api", "--top", "3"]) == 0
    shown = capsys.readouterr().out
    assert "JDK calls and callees with no C# counterpart:" in shown
    assert "      2  BitArray.words/1  ->  SupportClass.WordCount({1})\n" \
           "         e.g. words(size)  =>  SupportClass.WordCount(size)" in shown
    assert main(["--workdir", str(tmp_path / "w"), "mapping", "--api", "--format", "jsonl"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    factory = next(r for r in records if r["java"] == "new IndexOutOfBoundsException/1")
    assert factory == {"java": "new IndexOutOfBoundsException/1", "cs": "SupportClass.IndexOutOfRange({1})",
                       "count": 2, "mapped_callee": False,
                       "example": ["new IndexOutOfBoundsException(i)", "SupportClass.IndexOutOfRange(i)"],
                       "pair": ["source:com.google.zxing.common.BitArray.get(int)",
                                "target:ZXing.Common.BitArray.this[int]"]}
