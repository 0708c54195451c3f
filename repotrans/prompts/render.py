"""Load prompt templates (the top-level prompt_templates/<step>.md.j2, shipped in the wheel; a user's
folder, [prompts] dir, replaces any of them by name) and render them with StrictUndefined."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from repotrans.errors import ConfigError
from repotrans.shipped import shipped_folder

TEMPLATE_DIR = shipped_folder("prompt_templates")
STEPS = ("rag_decide", "rag_filter", "context", "generate", "reflect", "repair", "translate_tests", "repair_tests",
         "sync_edit")


def _to_json(value: Any, indent: int | None = None) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent, sort_keys=False)


def _as_text(value: Any, indent: int = 0) -> str:
    """A tool output as compact indented text (YAML-like): cheaper and easier to read than JSON."""
    pad = "  " * indent
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                lines += [f"{pad}{key}:", _as_text(item, indent + 1)]
            elif isinstance(item, str) and "\n" in item:
                lines += [f"{pad}{key}: |", *(f"{pad}  {line}" for line in item.splitlines())]
            else:
                lines.append(f"{pad}{key}: {_scalar(item)}")
        return "\n".join(lines)
    if isinstance(value, list):
        lines = []
        for item in value:
            if isinstance(item, (dict, list)) and item:
                nested = _as_text(item, indent + 1)
                lines.append(f"{pad}- {nested[len(pad) + 2:]}")
            elif isinstance(item, str) and "\n" in item:
                lines += [f"{pad}- |", *(f"{pad}  {line}" for line in item.splitlines())]
            else:
                lines.append(f"{pad}- {_scalar(item)}")
        return "\n".join(lines)
    return pad + _scalar(value)


def _scalar(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


@lru_cache(maxsize=4)
def environment(override: Path | None = None) -> jinja2.Environment:
    """Templates of the folder `override` first (a user's, by name), then the shipped ones."""
    folders = [str(override)] if override is not None else []
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([*folders, str(TEMPLATE_DIR)]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["json"] = _to_json
    env.filters["as_text"] = _as_text
    return env


def template_names() -> list[str]:
    """Every step that has a template file; none at all is an error (the package data is missing)."""
    names = [s for s in STEPS if (TEMPLATE_DIR / f"{s}.md.j2").is_file()]
    if not names:
        raise ConfigError(f"no prompt templates in {TEMPLATE_DIR}: the package data is missing (reinstall repotrans)")
    return names


@lru_cache(maxsize=1)
def step_headings() -> dict[str, str]:
    """Each step template's first line ("# Step: ...") -> the step: how a reader of a prompt knows its step."""
    return {(TEMPLATE_DIR / f"{s}.md.j2").read_text(encoding="utf-8").split("\n", 1)[0].strip(): s
            for s in template_names()}


def step_of(prompt: str) -> str | None:
    """The step a rendered prompt asks for, from its heading; None when it has none."""
    return step_headings().get(prompt.lstrip().split("\n", 1)[0].strip())


def render(step: str, slots: dict[str, Any], override: Path | None = None) -> str:
    """Render the template of `step` (the one in `override` when that folder has it); a missing slot
    raises ConfigError naming it."""
    if step not in STEPS:
        raise ConfigError(f"unknown prompt step {step!r}", did_you_mean=list(STEPS))
    try:
        template = environment(override).get_template(f"{step}.md.j2")
        return template.render(**slots).strip() + "\n"
    except jinja2.TemplateNotFound as exc:
        raise ConfigError(f"prompt template not found: {TEMPLATE_DIR / str(exc)}") from None
    except jinja2.UndefinedError as exc:
        raise ConfigError(f"prompt template {step}.md.j2: {exc.message}") from None
    except jinja2.TemplateSyntaxError as exc:
        raise ConfigError(f"prompt template {exc.name}:{exc.lineno}: {exc.message}") from None


def render_system(slots: dict[str, Any], override: Path | None = None) -> str:
    """The system message (system.md.j2), shared by every step."""
    try:
        return environment(override).get_template("system.md.j2").render(**slots).strip() + "\n"
    except jinja2.UndefinedError as exc:
        raise ConfigError(f"prompt template system.md.j2: {exc.message}") from None
