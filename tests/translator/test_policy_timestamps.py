"""Java millis the port declares as DateTime (issue 34, item 6: convert at the boundary): ZXing keeps
CalendarParsedResult's start/end as `long` (-1 for no end), ZXing.Net as `DateTime`/`DateTime?`."""
from __future__ import annotations

from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver
from repotrans.translator.timestamps import millis_fields, translate_with_dates
from repotrans.translator.tool_outputs import TargetType

OWN = TargetType(name="Cal", fields={"start": "DateTime", "end": "DateTime?", "count": "long", "name": "String"},
                 java_fields={"start": "long", "end": "long", "count": "long", "name": "String"},
                 methods=["private static long parseDurationMS(String s)"])


def _translated(java: str, target: str) -> str:
    return translate_with_dates(java, ContextResolver("Cal", {"Cal": OWN}), target, translate_method)


def test_only_long_fields_the_port_declares_as_dates_convert():
    assert millis_fields(OWN) == {"start": False, "end": True}


def test_a_sentinel_becomes_null_and_a_duration_a_timespan():
    code = _translated("void set(String d) { long ms = parseDurationMS(d); end = ms < 0L ? -1L : start + ms; "
                       "count = count + ms; }", "public void set(String d)")
    assert "end = ms < 0L ? null : (DateTime?)(start + TimeSpan.FromMilliseconds(ms));" in code, code
    assert "count = count + ms;" in code                  # a long the port keeps as long stays one


def test_a_getter_returns_the_ports_date_itself():
    code = _translated("java.util.Date getEnd() { return end < 0L ? null : new Date(end); }", "public DateTime? End")
    assert "return end == null ? null : end;" in code, code
    assert "return start;" in _translated("java.util.Date getStart() { return new Date(start); }", "public DateTime Start")


def test_a_member_the_port_declares_to_return_a_date_parses_as_dotnet_does():
    java = ('long parse(String s) throws ParseException { DateFormat format = new SimpleDateFormat('
            '"yyyyMMdd\'T\'HHmmss", Locale.ENGLISH); return format.parse(s).getTime(); }')
    code = _translated(java, "private static DateTime parse(String s)")
    assert code.endswith("{\n    return DateTime.ParseExact(s, \"yyyyMMdd'T'HHmmss\", "
                         "System.Globalization.CultureInfo.InvariantCulture);\n}"), code
    # a format configured before parsing (a time zone) is not ParseExact's: left as Java wrote it
    zoned = java.replace("return", "format.setTimeZone(TimeZone.getTimeZone(\"GMT\")); return")
    assert "ParseExact" not in _translated(zoned, "private static DateTime parse(String s)")
    # where the port keeps Java's millis, nothing changes
    assert "ParseExact" not in _translated(java, "private static long parse(String s)")
