"""The exclusions file of `repotrans parity`: API entries a port leaves out on purpose.

One rule per line; blank lines and lines starting with `#` are skipped:

    [CATEGORY:] PATTERN  [# reason]

PATTERN is a glob (`*`, `?`, `[...]`, case-sensitive) over a declaration's qualified name without
side prefix: Java names (`org.acme.util.Pair.of(A, B)`) for matched, missing and signature entries,
C# names (`Acme.Geo.Shapes.ShapeExtensions.*`) for port-only ones; `Foo.*` also takes the type `Foo`
itself. CATEGORY (`missing`, `signature`, `port-only`, `matched`) limits the rule to that category;
without it the rule takes every category. The first rule that matches wins; a rule that matches
nothing is listed as unused, so the file does not rot.
"""
from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from repotrans.errors import ConfigError

CATEGORY_NAMES = {"missing": "missing", "signature": "signature", "port-only": "port_only", "matched": "matched"}


@dataclass(frozen=True)
class Rule:
    pattern: str
    category: str | None          # a parity category, None: all
    reason: str
    line: int

    def takes(self, name: str) -> bool:
        return fnmatchcase(name, self.pattern) or (self.pattern.endswith(".*") and name == self.pattern[:-2])


class Exclusions:
    """Parsed rules, and which of them were used by the report built with them."""

    def __init__(self, rules: list[Rule]):
        self.rules = rules
        self._used: set[int] = set()

    @classmethod
    def read(cls, path: Path) -> "Exclusions":
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"--exclude: cannot read {path}: {exc.strerror}") from exc
        return cls.parse(text, str(path))

    @classmethod
    def parse(cls, text: str, where: str = "exclusions") -> "Exclusions":
        rules = []
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            body, _, reason = line.partition("#")
            body, category = body.strip(), None
            head, sep, rest = body.partition(":")
            if sep and " " not in head and head in CATEGORY_NAMES:
                category, body = CATEGORY_NAMES[head], rest.strip()
            elif sep and " " not in head and "(" not in head and "." not in head:
                raise ConfigError(f"{where}:{n}: unknown category '{head}:' "
                                  f"(use one of {', '.join(sorted(CATEGORY_NAMES))}, or none)")
            if not body:
                raise ConfigError(f"{where}:{n}: a rule needs a pattern, e.g. org.acme.util.Pair.*")
            rules.append(Rule(body, category, reason.strip(), n))
        return cls(rules)

    def match(self, category: str, name: str | None) -> Rule | None:
        """The first rule that takes a parity entry of `category` named `name` (None: no rule)."""
        for i, rule in enumerate(self.rules):
            if name and (rule.category in (None, category)) and rule.takes(name):
                self._used.add(i)
                return rule
        return None

    def unused(self) -> list[str]:
        return [f"line {r.line}: {r.pattern}" for i, r in enumerate(self.rules) if i not in self._used]
