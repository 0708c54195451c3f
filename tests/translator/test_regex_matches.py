"""Java's matches() is a match of the whole input: the engine backtracks into another alternative to reach the
end (`1|12` matches "12"), and a final line break is input (`abc` does not match "abc\\n"). .NET's leftmost
Match stops at `1`, and `$` matches before a final line break: String.matches, Pattern.matches, a chained
`p.matcher(s).matches()` and a Matcher walk's matches() (then group()) are compared with `java` on such inputs."""
from __future__ import annotations

import pytest

from repotrans.translator.resolver import ConventionResolver
from tests.support.policy_harness import java_and_shell_outputs, needs_toolchains

JAVA = """import java.util.regex.*;

public class Matches {
    static String whole(String regex, String input) {
        Pattern p = Pattern.compile(regex);
        String first = input.matches(regex) ? "y" : "n";
        String second = Pattern.matches(regex, input) ? "y" : "n";
        String third = p.matcher(input).matches() ? "y" : "n";
        Matcher m = p.matcher(input);
        String fourth = m.matches() ? m.group() : "-";
        return first + second + third + " " + fourth;
    }

    public static void main(String[] args) {
        System.out.println("whole: " + whole("1|12", "12"));
        System.out.println("whole: " + whole("abc", "abc\\n"));
        System.out.println("whole: " + whole("(?:a|ab)(?:c|bcd)", "abcd"));
        System.out.println("whole: " + whole("[0-9]+", "2024"));
        System.out.println("whole: " + whole("x", "xx"));
    }
}
"""

SHELL = """using System;
using System.Text.RegularExpressions;

public class Matches
{
//@METHODS@

    public static void Main(string[] args)
    {
        Console.WriteLine("whole: " + Whole("1|12", "12"));
        Console.WriteLine("whole: " + Whole("abc", "abc\\n"));
        Console.WriteLine("whole: " + Whole("(?:a|ab)(?:c|bcd)", "abcd"));
        Console.WriteLine("whole: " + Whole("[0-9]+", "2024"));
        Console.WriteLine("whole: " + Whole("x", "xx"));
    }
}
"""


@needs_toolchains
@pytest.mark.slow
def test_matches_is_a_match_of_the_whole_input_as_in_java(tmp_path):
    expected, actual, _ = java_and_shell_outputs(JAVA, "Matches", SHELL, ConventionResolver(), tmp_path)
    assert expected["whole"][:2] == ["yyy 12", "nnn -"]
    assert actual == expected


INTERSECTIONS = """import java.util.regex.*;

public class Classes {
    static String trim(String number) {
        Matcher trailing = Pattern.compile("[[\\\\P{N}&&\\\\P{L}]&&[^#]]+$").matcher(number);
        if (trailing.find()) {
            number = number.substring(0, trailing.start());
        }
        return number;
    }

    static String consonants(String word) {
        return word.replaceAll("[a-z&&[^aeiou]]", "_");
    }

    public static void main(String[] args) {
        System.out.println("trim: " + trim("650) 253-0000..- .."));
        System.out.println("trim: " + trim("1 800 FLOWERS #12 ##"));
        System.out.println("consonants: " + consonants("regexdialect"));
    }
}
"""

INTERSECTIONS_SHELL = """using System;
using System.Text.RegularExpressions;

public class Classes
{
//@METHODS@

    public static void Main(string[] args)
    {
        Console.WriteLine("trim: " + Trim("650) 253-0000..- .."));
        Console.WriteLine("trim: " + Trim("1 800 FLOWERS #12 ##"));
        Console.WriteLine("consonants: " + Consonants("regexdialect"));
    }
}
"""


@needs_toolchains
@pytest.mark.slow
def test_a_character_class_intersection_selects_what_java_selects(tmp_path):
    """libphonenumber's UNWANTED_END_CHARS `[[\\P{N}&&\\P{L}]&&[^#]]+$`: .NET has no `&&` (it read the class
    otherwise and left "..- .." on the number); an intersection of complements is the complement of the union,
    a class intersected with a complement a subtraction."""
    expected, actual, _ = java_and_shell_outputs(INTERSECTIONS, "Classes", INTERSECTIONS_SHELL, ConventionResolver(),
                                                 tmp_path)
    assert expected["trim"] == ["650) 253-0000", "1 800 FLOWERS #12 ##"]
    assert actual == expected
