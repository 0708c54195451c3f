"""Raw Java generics take their type arguments from the port's declarations and the uses around them
(issue 34): C# has no raw `List`; the builtin wrote `List copy = new List();` (CS0305)."""
from __future__ import annotations

from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver

# the port declares the field generic (`IList<string>`), Java kept it raw (pre-generics code, as JTS and the
# J2ME-era zxing wrote it)
REGISTRY = [("get_target_class_info", {}, {"class": "Acme.Registry", "kind": "class",
                                           "fields": ["private IList<string> names"], "members": []}),
            ("get_source_class_info", {}, {"class": "Registry", "fields": ["List names"], "members": []})]


def test_a_raw_local_takes_the_arguments_of_the_typed_names_it_meets():
    r = ContextResolver.from_tool_outputs("Registry", REGISTRY)
    java = ("void add(String name) { List copy = new ArrayList(); copy.addAll(names); copy.add(name); names = copy;"
            " for (Iterator it = names.iterator(); it.hasNext();) { String s = (String) it.next(); } }")
    out = translate_method(java, r, "public void Add(string name)")
    assert "List<string> copy = new List<string>();" in out
    assert "for (IEnumerator<string> it = names.GetEnumerator(); it.MoveNext(); )" in out


def test_raw_parameters_and_returns_take_the_ports_declaration_and_casts_name_the_elements():
    r = ContextResolver.from_tool_outputs("Registry", REGISTRY)
    # jsoup StringUtil.join(Collection strings, String sep); NSoup: Join(this ICollection<string> strings, ...)
    java = ("static List sorted(Collection strings) { List out = new ArrayList(strings); return out; }")
    out = translate_method(java, r, "public static List<string> Sorted(this ICollection<string> strings)")
    assert "List<string> @out = new List<string>(strings);" in out
    java = "static String first(List v) { HashMap seen = new HashMap(); String s = (String) seen.get(v);" \
           " seen.put(v, s); return s; }"
    assert "Dictionary<List<string>, string> seen = new Dictionary<List<string>, string>();" in \
        translate_method(java, r, "public static string First(List<string> v)")


def test_a_raw_local_without_evidence_holds_objects_or_the_created_type():
    r = ContextResolver.from_tool_outputs("EntrySet", [])
    # jsoup Attributes.Dataset.EntrySet.size()
    java = ("public int size() { int count = 0; Iterator iter = new DatasetIterator(); while (iter.hasNext())"
            " count++; return count; }")
    assert "DatasetIterator iter = new DatasetIterator();" in translate_method(java, r, "public int Size()")
    java = "void f() { ArrayList seen = new ArrayList(); g(seen); }"
    assert "List<object> seen = new List<object>();" in translate_method(java, r, "public void F()")
