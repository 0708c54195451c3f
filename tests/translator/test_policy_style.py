"""Code written into a port takes the file's own layout (issue 34): the builtin emits Allman braces and four
spaces; ZXing.Net indents by three spaces, some NSoup files by tabs, Mono's files in ZXing.Net's tree put
control braces on the line (K&R)."""
from __future__ import annotations

from repotrans.translator.style import Style, file_style, restyle

# ZXing.Net Source/lib/common/BitSource.cs (excerpt, three spaces)
ZXING = ("namespace ZXing.Common\n{\n   public sealed class BitSource\n   {\n      public BitSource(byte[] bytes)\n"
         "      {\n         this.bytes = bytes;\n      }\n\n      public int BitOffset\n      {\n"
         "         get { return bitOffset; }\n      }\n   }\n}\n")
# NSoup Helper/StringUtil.cs (excerpt, tabs)
NSOUP = ("namespace NSoup.Helper\n{\n\tpublic static class StringUtil\n\t{\n\t\t/// <summary>\n\t\t/// Join\n"
         "\t\t/// </summary>\n\t\tpublic static string Join(IEnumerator<string> iterator, string sep)\n\t\t{\n"
         "\t\t\tif (!iterator.MoveNext())\n\t\t\t{\n\t\t\t\treturn string.Empty;\n\t\t\t}\n\t\t}\n\t}\n}\n")
# ZXing.Net Source/lib/xamarin/ColorConverter.cs (Mono's, excerpt: K&R control braces, `catch` on its own line)
MONO = ("\t\tpublic override object ConvertFrom (ITypeDescriptorContext context, object value) {\n"
        "\t\t\tif (Char.IsLetter (s [0])) {\n\t\t\t\tKnownColor kc;\n\t\t\t\ttry {\n"
        "\t\t\t\t\tkc = (KnownColor) Enum.Parse (typeof (KnownColor), s, true);\n\t\t\t\t}\n"
        "\t\t\t\tcatch (Exception e) {\n\t\t\t\t\tthrow new Exception (msg, e);\n\t\t\t\t}\n"
        "\t\t\t\treturn KnownColors.FromKnownColor (kc);\n\t\t\t}\n\t\t}\n")
BUILTIN = ("public int ReadBits(int numBits)\n{\n    if (numBits < 1 || numBits > 32) // a comment {\n    {\n"
           "        throw new ArgumentException(numBits.ToString());\n    }\n    else\n    {\n        return 0;\n    }\n}")


def test_each_ports_layout_is_read_from_its_own_lines():
    assert file_style(ZXING) == Style(allman=True, unit="   ", cuddle=False)
    assert file_style(NSOUP) == Style(allman=True, unit="\t", cuddle=False)
    assert file_style(MONO) == Style(allman=False, unit="\t", cuddle=False)
    assert file_style("") == Style()          # no evidence: C#'s own default, the builtin's layout


def test_a_candidate_takes_the_files_indent_unit_and_braces():
    assert restyle(BUILTIN, file_style(ZXING)) == (
        "public int ReadBits(int numBits)\n{\n   if (numBits < 1 || numBits > 32) // a comment {\n   {\n"
        "      throw new ArgumentException(numBits.ToString());\n   }\n   else\n   {\n      return 0;\n   }\n}")
    assert restyle(BUILTIN, file_style(MONO)) == (     # never a brace after a `//` comment
        "public int ReadBits(int numBits) {\n\tif (numBits < 1 || numBits > 32) // a comment {\n\t{\n"
        "\t\tthrow new ArgumentException(numBits.ToString());\n\t}\n\telse {\n\t\treturn 0;\n\t}\n}")
    cuddled = Style(allman=False, unit="  ", cuddle=True)
    kr = restyle(BUILTIN.replace(" // a comment {", ""), cuddled)
    assert kr == ("public int ReadBits(int numBits) {\n  if (numBits < 1 || numBits > 32) {\n"
                  "    throw new ArgumentException(numBits.ToString());\n  } else {\n    return 0;\n  }\n}")
    assert restyle(kr, Style()) == BUILTIN.replace(" // a comment {", "")      # and back
    initializer = "int[] F()\n{\n    int[] a = {\n        1, 2 };\n    return new int[] {\n        3 };\n}"
    assert restyle(initializer, Style()) == initializer          # initializer braces are no blocks
    verbatim = 'string F()\n{\n    return @"a\n  b";\n}'
    assert restyle(verbatim, cuddled) == verbatim


def test_a_property_head_takes_the_brace_on_its_line_in_a_k_and_r_file():
    prop = "public int BitOffset\n{\n    get { return bitOffset; }\n}"
    assert restyle(prop, Style(allman=False, unit="\t")) == "public int BitOffset {\n\tget { return bitOffset; }\n}"
    assert restyle("public int BitOffset {\n\tget { return bitOffset; }\n}", Style(unit="   ")) == \
        "public int BitOffset\n{\n   get { return bitOffset; }\n}"
    statement = "void F()\n{\n    return x\n    {\n    }\n}"       # not a declaration: no modifier
    assert "return x {" not in restyle(statement, Style(allman=False))
