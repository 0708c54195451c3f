"""The tool registry: schemas from the top-level tools/<name>.json (shipped in the wheel), one implementation
per schema, and run_tool."""
from __future__ import annotations

import difflib
import json
from functools import lru_cache
from pathlib import Path
from typing import Callable

from repotrans.errors import RepotransError
from repotrans.shipped import shipped_folder
from repotrans.tools.bound import bound
from repotrans.tools.class_info import find_target_class_info, get_source_class_info, get_target_class_info
from repotrans.tools.context import ToolContext, ToolError
from repotrans.tools.imports import find_target_imports
from repotrans.tools.method_body import find_target_method_body
from repotrans.tools.relevance import scorer

SCHEMA_DIR = shipped_folder("tools")

IMPLEMENTATIONS: dict[str, Callable[..., dict]] = {f.__name__: f for f in (
    get_source_class_info,
    get_target_class_info,
    find_target_imports,
    find_target_class_info,
    find_target_method_body,
)}

_JSON_TYPES = {"string": str, "integer": int, "boolean": bool, "number": (int, float), "object": dict,
               "array": list}


@lru_cache(maxsize=1)
def _schemas() -> dict[str, dict]:
    out = {}
    for path in sorted(SCHEMA_DIR.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        if schema.get("name") != path.stem:
            raise RepotransError(f"{path}: schema name {schema.get('name')!r} differs from the file name")
        out[path.stem] = schema
    if not out:
        raise RepotransError(f"no tool schemas in {SCHEMA_DIR}: the package data is missing (reinstall repotrans)")
    return out


def load_step_schema(name: str) -> dict:
    """A step tool's schema (tools/steps/<name>.json: `enough`, `run_tests`); not a context tool."""
    path = SCHEMA_DIR / "steps" / f"{name}.json"
    if not path.is_file():
        raise RepotransError(f"no step tool schema {path}")
    return json.loads(path.read_text(encoding="utf-8"))


def load_schemas() -> dict[str, dict]:
    """name -> {name, description, parameters} (OpenAI function format), read from tools/*.json."""
    return json.loads(json.dumps(_schemas()))     # a copy: callers may edit theirs


def run_tool(ctx: ToolContext, name: str, args: dict) -> dict:
    """Run one tool; never raises. Errors come back as {"error": ..., "did_you_mean": [...]}."""
    try:
        return bound(_run(ctx, name, args), relevance=scorer(ctx))
    except Exception as exc:  # noqa: BLE001 - a tool failure must reach the model as a result
        return _error(f"internal error in {name}: {type(exc).__name__}: {exc}", [])


def _run(ctx: ToolContext, name: str, args: dict) -> dict:
    schemas = _schemas()
    if name not in schemas or name not in IMPLEMENTATIONS:
        close = difflib.get_close_matches(name, list(schemas), n=3, cutoff=0.5)
        return _error(f"unknown tool '{name}'", close or sorted(schemas))
    problem = _check_args(schemas[name]["parameters"], args)
    if problem:
        return _error(f"{name}: {problem}", [])
    try:
        return IMPLEMENTATIONS[name](ctx, **args)
    except ToolError as exc:
        return {**_error(exc.message, exc.did_you_mean), **exc.extra}
    except RepotransError as exc:
        return _error(exc.message, exc.did_you_mean)


def _error(message: str, did_you_mean: list[str]) -> dict:
    return {"error": message, "did_you_mean": list(did_you_mean)}


def _check_args(params: dict, args) -> str | None:
    """The first way `args` breaks the schema (required, unknown, JSON type), or None."""
    if not isinstance(args, dict):
        return f"arguments must be a JSON object, got {type(args).__name__}"
    props = params.get("properties", {})
    unknown = sorted(set(args) - set(props))
    if unknown:
        return f"unknown argument(s) {', '.join(unknown)}; expected: {', '.join(props) or 'none'}"
    missing = [p for p in params.get("required", []) if p not in args]
    if missing:
        return f"missing required argument(s): {', '.join(missing)}"
    for key, value in args.items():
        want = props[key].get("type")
        if want in _JSON_TYPES and not isinstance(value, _JSON_TYPES[want]):
            return f"argument '{key}' must be a {want}, got {type(value).__name__}"
    return None
