"""Parse one Java or C# file into the symbol model.

tree-sitter finds the declarations through the queries in queries/<lang>.scm (tags-style captures:
@definition.<kind> on a declaration, @name on its name); extractor.py places each declaration in its
namespace/type and parse_java.py / parse_csharp.py read its parts through the grammar's fields.
Byte offsets refer to the file's bytes (for a file that is not valid UTF-8: to the UTF-8 encoding of
its text decoded with replacement characters).
"""
from __future__ import annotations

import re
import threading

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


_THREAD = threading.local()             # this thread's parsers: Parser.parse is not reentrant


def thread_parser(lang: str) -> ts.Parser:
    """This thread's parser of `lang` ("java" | "csharp"), made on its first use in the thread: the
    judge's and the batch's threads never share one."""
    parsers: dict[str, ts.Parser] | None = getattr(_THREAD, "parsers", None)
    if parsers is None:
        parsers = _THREAD.parsers = {}
    if lang not in parsers:
        parsers[lang] = ts.Parser(grammar(lang).language)
    return parsers[lang]


@dataclass
class ParsedFile:
    info: FileInfo
    types: list[TypeDecl]
    fields: list[Field]
    methods: list[Method]
    decode_errors: bool = False      # the file was not valid UTF-8


DIRECTIVE_RE = re.compile(rb"^[ \t]*#[ \t]*(?:if|elif|else|endif|region|endregion)\b[^\r\n]*", re.M)


def decode(data: bytes) -> tuple[bytes, bool]:
    """Return UTF-8 bytes to parse and whether the input was not UTF-8: a UTF-16/32 file is decoded
    by its byte-order mark, any other non-UTF-8 file as Windows-1252 (the charset of the editors
    such sources come from; every byte decodes), replacement characters only for what is left."""
    if data.isascii():
        return data, False
    for bom, codec in ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
                       (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(codec).encode("utf-8"), True
            except UnicodeDecodeError:
                break
    try:
        data.decode("utf-8")
        return data, False
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace").encode("utf-8"), True


def source_text(data: bytes) -> str:
    """A file's text as the index reads it (see `decode`): the index's byte offsets are offsets into
    this text's UTF-8, so a file in Windows-1252 or UTF-16 is patched where the index says."""
    return decode(data)[0].decode("utf-8", "replace")


def parse_file(side: Side, path: str, data: bytes, sha256: str) -> ParsedFile:
    """Parse one file's bytes into its FileInfo, types, fields and members."""
    data, replaced = decode(data)
    lang = LANG_OF_SIDE[side]
    g = grammar(lang)
    parser = thread_parser(lang)
    tree = parser.parse(data)
    if side == "target" and b"#" in data and count_errors(tree):
        # a directive where the grammar takes none (`#if` inside a base list): parse again with the
        # directive lines blanked (same byte offsets: the text is still read from the file as it is),
        # kept when that recovers more
        retry = parser.parse(DIRECTIVE_RE.sub(lambda m: b" " * len(m.group()), data))
        if count_errors(retry) < count_errors(tree):
            tree = retry
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
