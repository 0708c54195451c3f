"""[prompts] of the configuration: a folder of the user's own prompt templates.

`dir` holds <name>.md.j2 files (any of prompt_templates/: a step's template, system.md.j2, or an
included part such as _tools.md.j2); each is used instead of the shipped template of its name, the
others stay as shipped. The CLI resolves it once (repotrans.toml's `[prompts] dir`, relative to that
file; `--templates DIR`, relative to the working directory) and every layer below receives the value."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.shipped import shipped_folder


@dataclass
class PromptSettings:
    dir: str | None = None          # a folder of templates overriding the shipped ones of the same name

    @property
    def folder(self) -> Path | None:
        return Path(self.dir) if self.dir else None

    def check(self) -> None:
        """The folder exists and every template in it stands in for a shipped one (a misspelt name
        would silently change nothing)."""
        if self.folder is None:
            return
        if not self.folder.is_dir():
            raise ConfigError(f"prompts.dir: {self.folder} is not a folder (set [prompts] dir or --templates "
                              "to a folder of .md.j2 files)")
        shipped = {p.name for p in shipped_folder("prompt_templates").glob("*.j2")}
        for path in sorted(self.folder.glob("*.j2")):
            if path.name not in shipped:
                raise ConfigError(f"prompts.dir: {path.name} replaces no shipped template; rename it to one of "
                                  + ", ".join(sorted(shipped)))
