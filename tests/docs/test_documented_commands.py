"""Every `repotrans` command and flag the README and docs/*.md show exists: each `repotrans CMD ...` line
(code blocks and inline code) names a subcommand whose parser (or the global one) takes each of its
--flags, and a --flag quoted alone is taken by some subcommand or by one of scripts/*.py (the benchmarks
the docs describe). Read from the argparse parser itself."""
from __future__ import annotations

import argparse
import re
from pathlib import Path

from repotrans.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[2]
FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")
INLINE = re.compile(r"`([^`\n]+)`")


def _documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return parser, dict(sub.choices)


def _flags(parser: argparse.ArgumentParser) -> set[str]:
    out = {s for a in parser._actions for s in a.option_strings}
    for a in parser._actions:           # --x / --no-x
        if isinstance(a, argparse.BooleanOptionalAction):
            out |= set(a.option_strings)
    return out


def _script_flags() -> set[str]:
    """The flags scripts/*.py declare (add_argument("--x", ...))."""
    out = set()
    for script in (ROOT / "scripts").glob("*.py"):
        out |= set(re.findall(r"add_argument\(\s*[\"'](--[a-z][\w-]*)", script.read_text(encoding="utf-8")))
    return out


def _command_lines(text: str) -> list[str]:
    """The `repotrans ...` invocations: lines of code blocks (continuations joined) and inline code."""
    out, block = [], False
    joined = re.sub(r"\\\n\s*", " ", text)
    for line in joined.splitlines():
        if line.strip().startswith("```"):
            block = not block
            continue
        if block:
            m = re.search(r"(?:^|\s|\$ |&& )(repotrans\s.*)", line)
            if m:
                out.append(m.group(1).split(" #", 1)[0])
        else:
            out += [c for c in INLINE.findall(line) if c.startswith("repotrans ")]
    return out


def test_every_documented_command_and_flag_exists():
    top, commands = _parsers()
    everywhere = _flags(top) | {f for p in commands.values() for f in _flags(p)}
    scripts = _script_flags()
    wrong = []
    for doc in _documents():
        text = doc.read_text(encoding="utf-8")
        for line in _command_lines(text):
            words = line.split()[1:]
            name = next((w for w in words if not w.startswith("-") and w in commands), None)
            first = next((w for w in words if not w.startswith("-")), None)
            if name is None:
                if first and re.fullmatch(r"[a-z][a-z-]*", first):
                    wrong.append(f"{doc.name}: no command {first!r}: {line}")
                wrong += [f"{doc.name}: repotrans takes no {f}: {line}" for f in FLAG.findall(line)
                          if f not in _flags(top)]
                continue
            known = _flags(top) | _flags(commands[name])
            if name == "dataset" or name == "index":      # nested subcommands
                for p in commands[name]._actions:
                    if isinstance(p, argparse._SubParsersAction):
                        known |= {f for q in p.choices.values() for f in _flags(q)}
            wrong += [f"{doc.name}: {name} takes no {f}: {line}" for f in FLAG.findall(line)
                      if f.split("=", 1)[0] not in known]
        for code in INLINE.findall(text):
            if not code.startswith("--"):       # another program's command line, or repotrans's (above)
                continue
            for f in FLAG.findall(code):
                if f not in everywhere | scripts:
                    wrong.append(f"{doc.name}: no command takes {f} (`{code}`)")
    assert wrong == []


def test_each_commands_help_names_a_page_that_exists():
    from repotrans.cli.examples import PAGES

    _, commands = _parsers()
    for name, page in PAGES.items():
        assert (ROOT / page).is_file(), page
        head, _, nested = name.partition(" ")
        parser = commands[head]
        if nested:
            sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
            parser = sub.choices[nested]
        assert f"more: {page}" in parser.format_help(), name
