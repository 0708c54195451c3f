"""JDK classes .NET lacks as the table's support classes (support_types.py): a LinkedHashMap made in access
order or as an anonymous subclass overriding removeEldestEntry (an LRU cache) is translated method by method,
compiled with real mcs (C# 6) beside the shipped support class, run with mono, and compared with `java`."""
from __future__ import annotations

import pytest

from repotrans.translator.cs_types import jdk_table
from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver, ConventionResolver
from repotrans.translator.tool_outputs import TargetType
from tests.support.policy_harness import java_and_shell_outputs, java_methods, needs_toolchains

JAVA = """import java.util.*;

public class LruMaps {
    private final int limit;
    private LinkedHashMap<String, Integer> map;

    public LruMaps(int limit) {
        this.limit = limit;
        map = new LinkedHashMap<String, Integer>(limit * 4 / 3 + 1, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                return size() > LruMaps.this.limit;
            }
        };
    }

    public int get(String key) { return map.get(key); }

    public boolean has(String key) { return map.containsKey(key); }

    public void put(String key, Integer value) { map.put(key, value); }

    public String keys() { return String.join(",", map.keySet()); }

    static String accessOrder() {
        LinkedHashMap<String, Integer> m = new LinkedHashMap<String, Integer>(8, 0.75f, true);
        m.put("a", 1); m.put("b", 2); m.put("c", 3);
        m.get("a"); m.put("b", 20);
        return String.join(",", m.keySet()) + " " + m.get("b");
    }

    static String evictByValue() {
        LinkedHashMap<String, Integer> m = new LinkedHashMap<String, Integer>() {
            protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                return eldest.getValue() < 0 || size() > 3;
            }
        };
        m.put("x", 5); m.put("n", -1); m.put("y", 6); m.put("z", 7); m.put("w", 8);
        m.get("y");
        return String.join(",", m.keySet()) + " " + m.containsKey("x") + " " + m.size();
    }

    public static void main(String[] args) {
        LruMaps cache = new LruMaps(2);
        cache.put("r1", 1); cache.put("r2", 2); cache.get("r1"); cache.put("r3", 3);
        System.out.println("lru: " + cache.keys() + " " + cache.has("r2") + " " + cache.get("r1"));
        cache.put("r1", 10); cache.put("r4", 4);
        System.out.println("lru: " + cache.keys());
        System.out.println("access: " + accessOrder());
        System.out.println("evict: " + evictByValue());
    }
}
"""

SHELL = """using System;
using System.Collections.Generic;
using System.Linq;

public class LruMaps
{
    private readonly int limit;
    private LinkedHashMap<string, int> map;
//@SUPPORT@
//@METHODS@

    public static void Main(string[] args)
    {
        LruMaps cache = new LruMaps(2);
        cache.Put("r1", 1); cache.Put("r2", 2); cache.Get("r1"); cache.Put("r3", 3);
        Console.WriteLine("lru: " + cache.Keys() + " " + (cache.Has("r2") ? "true" : "false") + " " + cache.Get("r1"));
        cache.Put("r1", 10); cache.Put("r4", 4);
        Console.WriteLine("lru: " + cache.Keys());
        Console.WriteLine("access: " + AccessOrder());
        Console.WriteLine("evict: " + EvictByValue());
    }
}
"""


def test_the_lru_constructor_passes_its_eviction_as_a_lambda_over_the_map():
    java = java_methods(JAVA, "LruMaps")[0]
    assert translate_method(java, ConventionResolver()) == (
        "public LruMaps(int limit)\n{\n    this.limit = limit;\n"
        "    map = new LinkedHashMap<string, int>(limit * 4 / 3 + 1, 0.75f, true, (__map, eldest) => {\n"
        "        return __map.Count > this.limit;\n    });\n}")


def _described() -> ContextResolver:
    """The class as the context tools describe it: its map field, as the skeleton declares it."""
    own = TargetType("LruMaps", fields={"limit": "int", "map": "LinkedHashMap<string, int>"},
                     java_fields={"limit": "int", "map": "LinkedHashMap<String, Integer>"},
                     methods=["public int Get(string key)", "public bool Has(string key)",
                              "public void Put(string key, int value)", "public string Keys()"])
    return ContextResolver("LruMaps", {"LruMaps": own})


@needs_toolchains
@pytest.mark.slow
def test_lru_and_access_ordered_maps_match_java(tmp_path):
    shell = SHELL.replace("//@SUPPORT@", jdk_table()["support"]["LinkedHashMap"]["cs"])
    expected, actual, _ = java_and_shell_outputs(JAVA, "LruMaps", shell, _described(), tmp_path)
    assert expected["lru"] == ["r1,r3 false 1", "r1,r4"]
    assert actual == expected
