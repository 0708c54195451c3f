"""Each construct of tests/data/policy/Constructs.java is translated method by method, compiled once
with real mcs (C# 6), run with mono, and its output compared line by line with `java Constructs.java`."""
from __future__ import annotations

import pytest

from tests.support.policy_harness import java_and_translation_outputs, needs_toolchains

CONSTRUCTS = ["loops", "forEach", "labelled", "switchFall", "switchString", "switchEnum", "switchArrow", "switchValue",
              "tryCatch", "tryResources", "ternary", "instanceOf", "casts", "arrays", "generics", "lambdas",
              "anonymous", "strings", "builders", "maths", "characters", "numbers", "bits", "patterns", "collections",
              "arraysUtil", "collectionsUtil", "objectsUtil", "exceptions", "charArithmetic", "shifts",
              "finalAndVar", "streams", "print", "helperCalls", "charsets",
              "codePoints", "surrogates", "arrayStatements"]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    return java_and_translation_outputs("Constructs", tmp_path_factory.mktemp("constructs"))


@needs_toolchains
@pytest.mark.slow
@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_construct_matches_java(outputs, construct):
    expected, actual, _ = outputs
    assert expected.get(construct), f"java printed nothing for {construct}"
    assert actual.get(construct) == expected[construct]


@needs_toolchains
@pytest.mark.slow
def test_every_java_line_is_covered(outputs):
    expected, actual, _ = outputs
    assert sorted(expected) == sorted(CONSTRUCTS)
    assert actual == expected


@needs_toolchains
@pytest.mark.slow
def test_translation_stays_in_csharp6(outputs):
    code = outputs[2]
    for construct in (" is var ", "out var", "=> throw", "switch {"):
        assert construct not in code
    assert "Array.Fill" not in code         # .NET Framework has none (ZXing.Net's targets): a loop
    assert "goto outer_continue;" in code and "goto outer_break;" in code
    # a Java catch takes its type's subclasses: IllegalArgumentException's NumberFormatException is .NET's
    # FormatException (or OverflowException), no ArgumentException (translator.catch_types)
    assert ("catch (Exception e) when (e is ArgumentException || e is FormatException || e is OverflowException"
            " || e is InvalidOperationException)") in code
