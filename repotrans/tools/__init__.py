"""The five context tools: pure functions over the index and the mapping, returning JSON-able dicts."""
from repotrans.tools.context import ToolContext, ToolError
from repotrans.tools.registry import IMPLEMENTATIONS, load_schemas, run_tool

__all__ = ["IMPLEMENTATIONS", "ToolContext", "ToolError", "load_schemas", "run_tool"]
