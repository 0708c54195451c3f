"""Name the C# language feature behind an mcs error, when mcs (C# 7.x at most) refuses newer C#:
`C# 7.0 local function (src/Foo.cs:12)` instead of a bare `CS1547 Keyword 'void' cannot be used in
this context`. mcs says so itself for some features (CS1644 "Feature `x' cannot be used because it
is not part of the C# N language specification"); for the others the source line at the error is
read and matched against the syntax of each feature."""
from __future__ import annotations

import re
from pathlib import Path

# mcs's syntax errors that newer syntax produces
SYNTAX_CODES = {"CS1547", "CS1525", "CS1002", "CS1519", "CS1001", "CS1026", "CS1003", "CS1041", "CS1031",
                "CS0246", "CS1644", "CS8025", "CS1513", "CS1514", "CS0103", "CS1520", "CS0106"}
FEATURE_RE = re.compile(r"Feature `([^']+)' cannot be used because it is not part of the C# ([\d.]+) language")
# (feature, C# version, pattern over the error's line)
FEATURES = (
    ("switch expression", "8.0", re.compile(r"\bswitch\s*\{")),
    ("pattern `is not` / `and` / `or`", "9.0", re.compile(r"\bis\s+not\b|\bis\s+[<>]=?|\bis\s+\w+\s+(?:and|or)\b")),
    ("null-coalescing assignment ??=", "8.0", re.compile(r"\?\?=")),
    ("using declaration", "8.0", re.compile(r"^\s*using\s+(?:var|[\w.<>]+)\s+\w+\s*=")),
    ("index/range operator", "8.0", re.compile(r"\[\s*\^\d|\.\.\s*\^?\w*\s*\]|\[\s*\w*\s*\.\.")),
    ("target-typed new()", "9.0", re.compile(r"=\s*new\s*\(\s*[^)]*\)\s*[;,)]")),
    ("record type", "9.0", re.compile(r"\brecord\s+(?:struct\s+|class\s+)?\w+")),
    ("init accessor", "9.0", re.compile(r"\binit\s*;")),
    ("default literal", "7.1", re.compile(r"[=(,:]\s*default\s*[;,)]")),
    ("in parameter / ref readonly", "7.2", re.compile(r"\(\s*in\s+\w|\bref\s+readonly\b|readonly\s+struct\b|ref\s+struct\b")),
    ("stackalloc in an expression / Span", "7.2", re.compile(r"\bSpan<|=\s*stackalloc\b")),
    ("nullable reference annotation", "8.0", re.compile(r"\w[?]\s+\w+\s*[=;,)]|\w!\s*[.;,)]")),
    ("static local function / lambda", "8.0", re.compile(r"\bstatic\s*\(|static\s+\w+\s+\w+\s*\(")),
    ("file-scoped namespace", "10.0", re.compile(r"^\s*namespace\s+[\w.]+\s*;")),
    ("global using", "10.0", re.compile(r"^\s*global\s+using\b")),
    ("raw string literal", "11.0", re.compile(r'"""')),
    ("required member", "11.0", re.compile(r"\brequired\s+\w+")),
    ("primary constructor", "12.0", re.compile(r"\b(?:class|struct)\s+\w+\s*\([^)]*\)\s*[:{]")),
    ("collection expression", "12.0", re.compile(r"=\s*\[[^\]]*\]\s*;")),
    ("local function", "7.0", re.compile(r"^\s*(?:static\s+|async\s+|unsafe\s+)*(?!return\b|new\b|throw\b|await\b)"
                                         r"[\w.<>\[\],?]+\s+\w+\s*(?:<[^>]*>)?\s*\([^;]*\)\s*(?:\{|=>|$)")),
    ("tuple type or literal", "7.0", re.compile(r"\(\s*\w+[\w<>\[\]]*\s+\w+\s*,\s*\w+[\w<>\[\]]*\s+\w+\s*\)|\bvar\s*\(")),
    ("out variable declaration", "7.0", re.compile(r"\bout\s+(?:var|[\w.<>]+)\s+\w+\s*[,)]")),
    ("throw expression", "7.0", re.compile(r"\?\?\s*throw\b|[?:]\s*throw\s+new\b|=>\s*throw\b")),
    ("expression-bodied accessor/constructor", "7.0", re.compile(r"\b(?:get|set)\s*=>")),
    ("pattern matching is T x", "7.0", re.compile(r"\bis\s+[\w.<>\[\]]+\s+\w+\s*[)&|;]")),
    ("case pattern / when", "7.0", re.compile(r"\bcase\s+[\w.<>]+\s+\w+\s*(?:when\b|:)")),
)


# API of newer .NET (netcoreapp2.0+, netstandard2.1) that mono's 4.5 profile lacks: (error message pattern, label)
API_GAPS = (
    (re.compile(r"`string\.(Split|Join|Contains|StartsWith|EndsWith|IndexOf|LastIndexOf|Replace|Trim\w*)\("),
     "the string.{0} overloads of .NET Core 2.0+ (char arguments, StringComparison)"),
    (re.compile(r"`System\.Math' does not contain a definition for `(\w+)'"), "Math.{0} of .NET Core"),
    (re.compile(r"does not contain a definition for `(GetValueOrDefault|TryAdd|Deconstruct|ToHashSet|SkipLast|"
                r"TakeLast|Append|Prepend|TryPop|TryPeek|TryDequeue|EnsureCapacity|AsSpan|AsMemory)'"),
     "{0} of .NET Core 2.0+ / netstandard2.1"),
    (re.compile(r"`(HashCode|Span|ReadOnlySpan|Memory|ReadOnlyMemory|ValueTask|IAsyncEnumerable|IAsyncDisposable|"
                r"ArrayPool|MemoryMarshal|BinaryPrimitives)(?:<[^']*>)?' (?:could not be found|does not exist in the "
                r"namespace `System)"),
     "type {0} of .NET Core / netstandard2.1"),
)


def api_gap(code: str, message: str) -> str:
    """`API <what> of newer .NET` when the error names an API mono's 4.5 profile lacks, else ""."""
    if code not in ("CS1501", "CS1502", "CS1503", "CS0117", "CS1061", "CS0246", "CS0234", "CS1929"):
        return ""
    for pattern, label in API_GAPS:
        m = pattern.search(message)
        if m:
            return "API " + label.format(m.group(1))
    return ""


def language_gap(code: str, message: str, file: Path | None, line: int) -> str:
    """`C# N <feature>` when this mcs error comes from newer C#, `API ...` when from newer .NET, else ""."""
    m = FEATURE_RE.search(message)
    if m:
        return f"C# {m.group(2)} {m.group(1)}"
    api = api_gap(code, message)
    if api:
        return api
    if code not in SYNTAX_CODES or file is None or line <= 0:
        return ""
    try:
        lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    text = lines[line - 1] if line <= len(lines) else ""
    for feature, version, pattern in FEATURES:
        if pattern.search(text):
            if feature == "local function" and code not in ("CS1547", "CS1525", "CS1002", "CS1519"):
                continue
            return f"C# {version} {feature}"
    return ""
