"""Parse one Java or C# file into the symbol model.

tree-sitter finds the declarations through the queries in queries/<lang>.scm (tags-style captures:
@definition.<kind> on a declaration, @name on its name); extractor.py places each declaration in its
namespace/type and parse_java.py / parse_csharp.py read its parts through the grammar's fields.
Byte offsets refer to the file's bytes (for a file that is not valid UTF-8: to the UTF-8 encoding of
its text decoded with replacement characters).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import tree_sitter as ts
import tree_sitter_c_sharp
import tree_sitter_java

from repotrans.index.model import LANG_OF_SIDE, Field, FileInfo, Method, Side, TypeDecl
from repotrans.index.parse_csharp import CSharpExtractor
from repotrans.index.parse_java import JavaExtractor


@dataclass(frozen=True)
class Grammar:
    language: ts.Language
    query: ts.Query               # queries/<lang>.scm


_LANGUAGES = {"java": tree_sitter_java.language, "csharp": tree_sitter_c_sharp.language}


@lru_cache(maxsize=None)
def grammar(lang: str) -> Grammar:
    language = ts.Language(_LANGUAGES[lang]())
    source = resources.files("repotrans.index").joinpath("queries", f"{lang}.scm").read_text("utf-8")
    query = ts.Query(language, source)
    query.disable_capture("name")        # the extractors read names through the grammar's fields
    return Grammar(language, query)


def parser_for(side: Side) -> ts.Parser:
    return ts.Parser(grammar(LANG_OF_SIDE[side]).language)


_parsers: dict[str, ts.Parser] = {}      # one per language and process (parse() is not reentrant)


@dataclass
class ParsedFile:
    info: FileInfo
    types: list[TypeDecl]
    fields: list[Field]
    methods: list[Method]
    decode_errors: bool = False      # the file was not valid UTF-8


def decode(data: bytes) -> tuple[bytes, bool]:
    """Return UTF-8 bytes to parse and whether the input had to be decoded with replacement."""
    if data.isascii():
        return data, False
    try:
        data.decode("utf-8")
        return data, False
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace").encode("utf-8"), True


def parse_file(side: Side, path: str, data: bytes, sha256: str) -> ParsedFile:
    """Parse one file's bytes into its FileInfo, types, fields and members."""
    data, replaced = decode(data)
    lang = LANG_OF_SIDE[side]
    g = grammar(lang)
    parser = _parsers.get(lang) or _parsers.setdefault(lang, ts.Parser(g.language))
    tree = parser.parse(data)
    extractor = (JavaExtractor if side == "source" else CSharpExtractor)(side, path, data, g.query)
    info, types, fields, methods = extractor.run(tree)
    info.sha256, info.syntax_errors = sha256, count_errors(tree)
    return ParsedFile(info, types, fields, methods, replaced)


def count_errors(tree: ts.Tree) -> int:
    """Number of ERROR and MISSING nodes tree-sitter recovered from."""
    if not tree.root_node.has_error:
        return 0
    count, cursor = 0, tree.walk()
    while True:
        node = cursor.node
        if node.is_error or node.is_missing:
            count += 1
        if node.has_error and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return count
