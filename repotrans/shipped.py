"""Folders a user edits that ship beside the code: `tools/` (the tools' JSON schemas) and
`prompt_templates/` (the prompt templates) sit at the top of the repository, the one copy in git;
a wheel carries them as package data (pyproject [tool.setuptools.package-dir]: tools/ ->
repotrans/tools/schemas, prompt_templates/ -> repotrans/prompts/templates)."""
from __future__ import annotations

from importlib import resources
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
IN_WHEEL = {"tools": ("repotrans.tools", "schemas"), "prompt_templates": ("repotrans.prompts", "templates")}


def shipped_folder(name: str) -> Path:
    """Top-level folder `name` (tools, prompt_templates) of the source checkout this package runs
    from, else its copy inside the installed package."""
    if (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / name).is_dir():
        return CHECKOUT / name
    package, folder = IN_WHEEL[name]
    return Path(str(resources.files(package) / folder))
