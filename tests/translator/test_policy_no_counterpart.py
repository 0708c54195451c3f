"""Why a candidate names something the port does not have (translator/no_counterpart.py): HdrHistogram's cached
output view named three Java fields HdrHistogram.NET does not declare, and its ShortHistogram read a short the
port's ByteBuffer cannot give; the builtin's reflect step said only "no rule applies"."""
from __future__ import annotations

from repotrans.translator.no_counterpart import missing_reasons
from repotrans.translator.resolver import ContextResolver
from repotrans.translator.tool_outputs import TargetType
from repotrans.verdicts.results import Diagnostic, TestResult


def _result(*diagnostics: tuple[str, str]) -> TestResult:
    return TestResult(status="compile_error", diagnostics=[Diagnostic(code, message, "H.cs", 3, 5, 3)
                                                           for code, message in diagnostics])


def _resolver() -> ContextResolver:
    own = TargetType("ShortHistogram", fields={"counts": "short[]"}, java_fields={
        "counts": "short[]", "cachedDstShortBuffer": "ShortBuffer"})
    buffer = TargetType("ByteBuffer", methods=["public long getLong()", "public void putLong(long value)"])
    return ContextResolver("ShortHistogram", {"ShortHistogram": own, "ByteBuffer": buffer})


def test_a_java_field_a_member_and_a_type_the_port_lacks_are_named_with_what_java_declares():
    reasons = missing_reasons(_result(
        ("CS0103", "The name `cachedDstShortBuffer' does not exist in the current context"),
        ("CS1061", "Type `HdrHistogram.NET.Utilities.ByteBuffer' does not contain a definition for `GetShort' and no "
                   "extension method `GetShort' of type `HdrHistogram.NET.Utilities.ByteBuffer' could be found"),
        ("CS0246", "The type or namespace name `ShortBuffer' could not be found. Are you missing an assembly reference?"),
        ("CS0103", "The name `cachedDstShortBuffer' does not exist in the current context")), _resolver())
    assert len(reasons) == 3, reasons
    assert reasons[0].startswith("`cachedDstShortBuffer` is Java's field `ShortBuffer cachedDstShortBuffer` of "
                                 "ShortHistogram, which the port does not declare"), reasons
    assert "the port's ByteBuffer has no member `GetShort`" in reasons[1] and "getLong, putLong" in reasons[1]
    assert reasons[2].startswith("`ShortBuffer` is a Java type that neither the port nor the JDK table has")


def test_what_the_port_has_or_the_context_does_not_describe_gives_no_reason():
    """A local the candidate misspelt, a field the port declares under another spelling, a member of a type the
    context never described, a JDK type the table maps: no such reason."""
    resolver = _resolver()
    resolver.types["ShortHistogram"].java_fields["_counts"] = "short[]"
    assert missing_reasons(_result(
        ("CS0103", "The name `totl' does not exist in the current context"),
        ("CS0103", "The name `_counts' does not exist in the current context"),
        ("CS1061", "Type `Other' does not contain a definition for `Foo'"),
        ("CS0246", "The type or namespace name `StringBuilder' could not be found")), resolver) == []
