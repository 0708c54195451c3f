"""What the target tools' outputs say about C# types (TargetType): fields, properties, method
signatures, supertypes, type parameters, an indexer; and the Java side's field and return types."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from repotrans.index.lookup import split_top


@dataclass
class TargetType:
    """What is known about one target type: fields (name -> C# type), properties, method signatures."""
    name: str
    fields: dict[str, str] = field(default_factory=dict)
    java_fields: dict[str, str] = field(default_factory=dict)     # Java field name -> Java type
    properties: dict[str, str] = field(default_factory=dict)
    methods: list[str] = field(default_factory=list)              # C# signatures as written
    java_methods: dict[str, str] = field(default_factory=dict)    # "name/argc" -> Java return type
    supertypes: list[str] = field(default_factory=list)           # simple names of the project types it
                                                                  # inherits from, nearest first (the tool's)
    type_params: list[str] = field(default_factory=list)
    indexer: tuple[str, int] | None = None                        # `this[int, ...]`: (element type, arity)
    kind: str = "class"                                           # class | interface | enum | struct
    private: set[str] = field(default_factory=set)                # fields other types cannot reach
    nested: list[str] = field(default_factory=list)               # simple names of the types declared inside

    def method_names(self) -> dict[str, list[str]]:
        names: dict[str, list[str]] = {}
        for sig in self.methods:
            head = signature_head(sig)
            if head:
                names.setdefault(head[0], []).append(sig)
        return names


_FIELD_MODIFIERS = {"public", "private", "protected", "internal", "static", "readonly", "const", "volatile",
                    "new", "final", "transient", "virtual", "override", "abstract", "sealed", "extern", "unsafe"}


def declared_member(text: str) -> tuple[str, str] | None:
    """`private readonly Dictionary<string, int> counts = ...` -> ("counts", "Dictionary<string, int>")."""
    head = text.split("=", 1)[0].split("{", 1)[0].strip()
    words = head.replace(", ", ",").split()
    words = [w for w in words if w not in _FIELD_MODIFIERS and not w.startswith("@")]
    if len(words) < 2:
        return None
    return words[-1], " ".join(words[:-1]).replace(",", ", ")


def signature_head(signature: str) -> tuple[str, str, int] | None:
    """`public List<int> Get<T>(int a, string b)` -> ("Get", "List<int>", 2); None for non-methods."""
    if "(" not in signature:
        return None
    before, params = signature.split("(", 1)
    before = re.sub(r"<[^<>]*(?:<[^<>]*>[^<>]*)*>\s*$", "", before.strip())
    words = [w for w in before.replace(", ", ",").split() if w not in _FIELD_MODIFIERS
             and not w.startswith("<") and w not in ("abstract", "virtual", "override", "sealed", "synchronized", "default")]
    if not words:
        return None
    inner = params.rsplit(")", 1)[0].strip()
    argc = len(split_top(inner))
    return words[-1], " ".join(words[:-1]).replace(",", ", "), argc


def declared_type_params(declaration: str) -> list[str]:
    """`public class Pair<A, B>` -> ["A", "B"] (bounds dropped)."""
    if "<" not in declaration:
        return []
    inner, depth = declaration[declaration.index("<") + 1:], 1
    for i, ch in enumerate(inner):
        depth += {"<": 1, ">": -1}.get(ch, 0)
        if depth == 0:
            inner = inner[:i]
            break
    return [a.split()[0] for a in split_top(inner)]


_INDEXER = re.compile(r"(?<![.\w])this\s*\[\s*(?=[\w.<>, ]+\s\w+\s*[,\]])")   # `this[int i]`, `this[string key]`; not `IDictionary<K, V>.this[...]`


_ATTRIBUTES = re.compile(r'^\s*(?:\[(?:"(?:\\.|[^"\\])*"|[^\]"])*\]\s*)+')


def target_type(out: dict) -> TargetType:
    """A get_target_class_info / find_target_class_info output as a TargetType."""
    info = TargetType(name=str(out.get("class", "")).rsplit(".", 1)[-1],
                      supertypes=[str(s).rsplit(".", 1)[-1] for s in out.get("supertypes", [])],
                      type_params=declared_type_params(str(out.get("declaration", ""))),
                      kind=str(out.get("kind", "class")),
                      nested=[str(n).split()[-1].rsplit(".", 1)[-1] for n in out.get("nested_types", [])])
    for text in out.get("fields", []):
        declared = declared_member(text)
        if declared:
            info.fields[declared[0]] = declared[1]
            words = text.split("=", 1)[0].split()
            if "private" in words or not {"public", "protected", "internal"} & set(words):
                info.private.add(declared[0])
    for constant in out.get("enum_constants", []):
        info.fields[str(constant).split("=")[0].split("(")[0].strip()] = info.name
    for text in out.get("members", []):
        text = _ATTRIBUTES.sub("", str(text))      # `[Obsolete("...")] public int[] X { get; set; }` is a property
        indexer = _INDEXER.search(text.split("{", 1)[0])
        if indexer:
            words = [w for w in text[:indexer.start()].split() if w not in _FIELD_MODIFIERS
                     and w not in ("virtual", "override", "abstract", "sealed")]
            inner = text[indexer.end():].split("]", 1)[0]
            if info.indexer is None:     # the first declared, as the tool lists them
                info.indexer = (" ".join(words), inner.count(",") + 1)
        elif "(" in text.split("{", 1)[0]:
            info.methods.append(text)
        elif "{" in text:
            declared = declared_member(text)
            if declared:
                info.properties[declared[0]] = declared[1]
    return info


def java_members(out: dict) -> tuple[dict[str, str], dict[str, str]]:
    """(Java field name -> type, "name/argc" -> return type) from a get_source_class_info output."""
    fields = {}
    for text in out.get("fields", []):
        declared = declared_member(text)
        if declared:
            fields[declared[0]] = declared[1]
    methods = {}
    for text in out.get("members", []):
        head = signature_head(text)
        if head and head[1]:
            methods[f"{head[0]}/{head[2]}"] = head[1]
    return fields, methods
