"""The learned API map (issue 34): from the mapping's aligned method pairs, how the port writes Java
calls, constructions and constants, on the mini ZXing port of tests/support/api_pair.py."""
from __future__ import annotations

import json

from repotrans.mapping.api_cache import api_fingerprint, load_api_map
from repotrans.mapping.api_map import Choice, name_likeness
from tests.support.api_pair import CS, JAVA
from tests.support.indexes import mapped_pair

def _api(tmp_path):
    mapping, index = mapped_pair(tmp_path, JAVA, CS)
    return load_api_map(index, mapping), mapping, index


def test_port_idioms_are_learned_with_counts_and_examples(tmp_path):
    api, mapping, _ = _api(tmp_path)
    choice = api.choose("new IndexOutOfBoundsException/1")
    assert choice == Choice("SupportClass.IndexOutOfRange({1})", 3, 3,
                            ("new IndexOutOfBoundsException(i)", "SupportClass.IndexOutOfRange(i)"))
    assert api.choose("Integer.MAX_VALUE").template == "Int32.MaxValue"
    # seen only with the literal 'X': it answers for that literal, not for any argument
    assert api.choose("StringBuilder#append/1", ["'X'"]).template == "{0}.Append({1})"
    assert api.choose("StringBuilder#append/1", ["c"]) is None
    assert api.choose("new StringBuilder/1").template == "new System.Text.StringBuilder({1})"
    # the removed private helper: its call sites show the port's replacement
    assert api.choose("BitArray.words/1").template == "SupportClass.WordCount({1})"
    assert "BitArray.words/1" not in api.mapped          # no C# counterpart: the map answers for it
    assert "BitArray#set/1" in api.mapped                # a paired callee: the resolver answers for it
    shown = api.render(top=5)
    assert "      3  new IndexOutOfBoundsException/1  ->  SupportClass.IndexOutOfRange({1})" in shown


def test_a_task_never_sees_its_own_pair(tmp_path):
    api, mapping, _ = _api(tmp_path)
    get = "source:com.google.zxing.common.BitArray.get(int)"
    set_ = "source:com.google.zxing.common.BitArray.set(int)"
    assert api.without(get).choose("new IndexOutOfBoundsException/1").count == 2
    flip = "source:com.google.zxing.common.BitArray.flip(int)"
    assert api.without(get, set_, flip).choose("new IndexOutOfBoundsException/1") is None
    target = mapping.target_method("source:com.google.zxing.common.BitArray.firstSet()").target_id
    assert api.without(target).choose("Integer.MAX_VALUE") is None     # by the C# member's id too
    assert api.choose("new IndexOutOfBoundsException/1", min_count=4) is None


def test_cached_with_the_mapping_and_rebuilt_when_the_index_changes(tmp_path):
    api, mapping, index = _api(tmp_path)
    again = load_api_map(index, mapping)
    assert again.observations == api.observations and again.mapped == api.mapped
    stored = index.conn.execute("SELECT fingerprint FROM api_map_meta").fetchone()[0]
    assert stored == api_fingerprint(index, mapping)
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
                       "count": 3, "mapped_callee": False,
                       "example": ["new IndexOutOfBoundsException(i)", "SupportClass.IndexOutOfRange(i)"],
                       "pair": ["source:com.google.zxing.common.BitArray.get(int)",
                                "target:ZXing.Common.BitArray.this[int]"]}


def test_the_prompt_slot_shows_the_ports_form_of_this_methods_calls_without_its_own_pair(tmp_path):
    from repotrans.mapping.api_hints import port_calls

    api, mapping, index = _api(tmp_path)
    java = index.method("source:com.google.zxing.common.BitArray.set(int)")
    target = mapping.target_method(java.id).target_id
    fields = {f.name: f.type for f in index.fields(java.type_id)}
    assert port_calls(api.without(java.id, target), java, fields, "BitArray") == [
        {"java": "new IndexOutOfBoundsException(i)", "cs": "SupportClass.IndexOutOfRange(i)", "count": 2, "total": 2}]


def test_an_inherited_helper_the_port_removed_is_learned_under_its_declaring_class(tmp_path):
    """ZXing's ResultParser.getMassagedText(result), which ZXing.Net dropped for `result.Text`: what the
    port did in one parser subclass answers for another."""
    java = {"p/ResultParser.java": "package p; public abstract class ResultParser {\n"
                                   "  protected static String getMassagedText(Result r) { return r.getText(); } }",
            "p/Result.java": "package p; public class Result { public String getText() { return null; } }",
            "p/TelParser.java": "package p; public class TelParser extends ResultParser {\n"
                                "  public String parse(Result result) { String raw = getMassagedText(result); return raw; } }",
            "p/SmsParser.java": "package p; public class SmsParser extends ResultParser {\n"
                                "  public String parse(Result result) { String raw = getMassagedText(result); return raw; } }"}
    cs = {"P.cs": "namespace P {\n public abstract class ResultParser { }\n"
                  " public class Result { public string Text { get { return null; } } }\n"
                  " public class TelParser : ResultParser { public string parse(Result result) { string raw = result.Text; return raw; } }\n"
                  " public class SmsParser : ResultParser { public string parse(Result result) { string raw = result.Text; return raw; } }\n}\n"}
    mapping, index = mapped_pair(tmp_path, java, cs)
    api = load_api_map(index, mapping)
    sms = "source:p.SmsParser.parse(Result)"
    choice = api.without(sms, mapping.target_method(sms).target_id).choose("ResultParser.getMassagedText/1")
    assert (choice.template, choice.count) == ("{1}.Text", 1)     # seen in TelParser only


def test_a_constant_the_port_moved_and_shortened_is_learned_and_used_for_the_own_class_bare_name(tmp_path):
    """ZXing's datamatrix HighLevelEncoder.C40_ENCODATION is ZXing.Net's Encodation.C40 (words the port dropped:
    name likeness 0.5, below the threshold); the encoder's own bare `C40_ENCODATION` then reads as the port's."""
    from repotrans.translator.java2cs import translate_method
    from repotrans.translator.resolver import ContextResolver
    java = {"d/HighLevelEncoder.java": "package d; public final class HighLevelEncoder {\n"
                                       "  static final int ASCII_ENCODATION = 0; static final int C40_ENCODATION = 1;\n"
                                       "  static int lookAhead(int mode) { return mode == ASCII_ENCODATION ? C40_ENCODATION : mode; } }",
            "d/C40Encoder.java": "package d; class C40Encoder {\n"
                                 "  public int getEncodingMode() { return mode(HighLevelEncoder.C40_ENCODATION); }\n"
                                 "  int mode(int m) { return m; } }",
            "d/AsciiEncoder.java": "package d; class AsciiEncoder {\n"
                                   "  public int getEncodingMode() { return mode(HighLevelEncoder.ASCII_ENCODATION); }\n"
                                   "  int mode(int m) { return m; } }"}
    cs = {"D.cs": "namespace D {\n public static class Encodation { public const int ASCII = 0; public const int C40 = 1; }\n"
                  " internal static class HighLevelEncoder {\n"
                  "  internal static int lookAhead(int mode) { return mode == Encodation.ASCII ? Encodation.C40 : mode; } }\n"
                  " class C40Encoder { public int getEncodingMode() { return mode(Encodation.C40); } int mode(int m) { return m; } }\n"
                  " class AsciiEncoder { public int getEncodingMode() { return mode(Encodation.ASCII); } int mode(int m) { return m; } }\n}\n"}
    mapping, index = mapped_pair(tmp_path, java, cs)
    api = load_api_map(index, mapping)
    assert api.choose("HighLevelEncoder.C40_ENCODATION").template == "Encodation.C40"
    assert api.choose("HighLevelEncoder.ASCII_ENCODATION").template == "Encodation.ASCII"
    r = ContextResolver.from_tool_outputs("HighLevelEncoder", [
        ("get_target_class_info", {}, {"class": "D.HighLevelEncoder", "kind": "class", "fields": [],
                                       "members": ["internal static int lookAhead(int mode)"]}),
        ("get_source_class_info", {}, {"class": "d.HighLevelEncoder", "members": [],
                                       "fields": ["static final int ASCII_ENCODATION = 0",
                                                  "static final int C40_ENCODATION = 1"]})])
    r.api = api
    out = translate_method("static int lookAhead(int mode) { return mode == ASCII_ENCODATION ? C40_ENCODATION : mode; }",
                           r, "internal static int lookAhead(int mode)")
    assert "return mode == Encodation.ASCII ? Encodation.C40 : mode;" in out


def test_a_call_statement_aligned_with_part_of_a_condition_is_no_statement_template(tmp_path):
    """NSoup writes jsoup's `Validate.notEmpty(name);` as `if (string.IsNullOrEmpty(name)) { throw .. }`: the
    call aligns with the condition's `string.IsNullOrEmpty(name)`, which as a statement of its own discards the
    guard (the builtin wrote `string.IsNullOrEmpty(html);`). A statement aligned with a statement still teaches."""
    java = {"p/Check.java": "package p; public final class Check {\n"
                            "  public static void notEmpty(String s) { if (s == null || s.length() == 0) throw new IllegalArgumentException(); } }",
            "p/Tag.java": "package p; import java.util.List; public class Tag {\n"
                          "  List<String> names;\n"
                          "  public void add(String name) { Check.notEmpty(name); names.add(name); }\n"
                          "  public void put(String key) { Check.notEmpty(key); names.add(key); } }"}
    cs = {"Tag.cs": "using System; using System.Collections.Generic; namespace P { public class Tag {\n"
                    "  List<string> names;\n"
                    "  public void Add(string name) { if (string.IsNullOrEmpty(name)) { throw new ArgumentException(); } names.Add(name); }\n"
                    "  public void Put(string key) { if (string.IsNullOrEmpty(key)) { throw new ArgumentException(); } names.Add(key); } } }\n"}
    mapping, index = mapped_pair(tmp_path, java, cs)
    api = load_api_map(index, mapping)
    assert [o.template for o in api.observations if o.key == "Check.notEmpty/1"] == ["string.IsNullOrEmpty({1})"] * 2
    assert api.choose("Check.notEmpty/1") is None
    assert api.choose("List#add/1").template == "{0}.Add({1})"
