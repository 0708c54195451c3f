"""One tree-sitter parser per thread (Parser.parse is not reentrant): the index, patching, test
selection and candidate extraction all take theirs from index.parse.thread_parser."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from repotrans.index.parse import thread_parser


def test_a_thread_keeps_its_parser_and_no_two_threads_share_one():
    here = thread_parser("csharp")
    assert thread_parser("csharp") is here and thread_parser("java") is not here
    with ThreadPoolExecutor(4) as pool:
        theirs = list(pool.map(lambda _: id(thread_parser("csharp")), range(4), chunksize=1))
    assert id(here) not in theirs


def test_threads_parse_at_once_and_each_gets_its_own_tree():
    code = [f"class C{i} {{ int M() {{ return {i}; }} }}".encode() for i in range(64)]
    with ThreadPoolExecutor(8) as pool:
        names = list(pool.map(lambda src: thread_parser("csharp").parse(src).root_node.children[0]
                              .child_by_field_name("name").text.decode(), code))
    assert names == [f"C{i}" for i in range(64)]
