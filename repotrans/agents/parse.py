"""Read model answers as real models write them.

Every answer first loses its reasoning (`<think>`, `<reasoning>`, an Ollama "Thinking..." preamble; a
`reasoning_content` field arrives separately), which is kept for the trajectory. The rest is read for
the format the step asks for: one JSON object (leniently, see lenient_json), code fences of any common
tag, MORE_CONTEXT requests (plain, bold, or with the JSON on the next lines), and tool calls in the
text protocol (`tool`/`name`, `arguments`/`parameters`, arguments as a JSON string).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from repotrans.agents import lenient_json
from repotrans.agents.lenient_json import JsonProblem

REASONING_TAGS = ("think", "thinking", "reasoning", "thought", "reflection_internal")
_OPEN = re.compile(r"<(" + "|".join(REASONING_TAGS) + r")>", re.I)
_OLLAMA = re.compile(r"\A\s*Thinking\.\.\.\s*\n(.*?)\n\s*\.\.\.done thinking\.?\s*\n", re.S)
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w#+.-]*)[^\n]*\n(.*?)(?:^[ \t]*\1[ \t]*$|\Z)", re.S | re.M)
CSHARP_TAGS = {"csharp", "cs", "c#", "cshar", "c-sharp", "c_sharp", "csx", "dotnet", "net"}
OTHER_CODE = {"java", "json", "python", "py", "text", "txt", "bash", "sh", "xml", "yaml", "diff", "kotlin"}
_GAP = re.compile(r"[\s`*_,\-]*(?:(?:\d+[.)]|json)[\s`*_,\-]*)*")    # between listed requests
_MARKER = re.compile(r"[*_`#>\s-]*MORE[ _]CONTEXT[*_`]*\s*:?[*_`]*[ \t]*", re.I)


@dataclass
class Answer:
    """A model answer: what it says, and the reasoning set aside."""
    text: str
    reasoning: str = ""


def split_reasoning(text: str, reasoning_content: str | None = None) -> Answer:
    """Set reasoning blocks aside; an unclosed block (a cut-off answer) is reasoning to the end."""
    parts = [reasoning_content.strip()] if reasoning_content and reasoning_content.strip() else []
    m = _OLLAMA.match(text)
    if m:
        parts.append(m.group(1).strip())
        text = text[m.end():]
    for tag in REASONING_TAGS:
        close = re.compile(rf"</{tag}>", re.I)
        last_close = None
        for last_close in close.finditer(text):
            pass
        if last_close is not None and not re.search(rf"<{tag}>", text[:last_close.start()], re.I):
            # `</think>` without its opening tag: the chat template opened the block before the answer
            parts.append(text[:last_close.start()].strip())
            text = text[last_close.end():]
    while True:
        m = _OPEN.search(text)
        if m is None:
            break
        tag = m.group(1)
        close = re.search(rf"</{tag}>", text[m.end():], re.I)
        if close is None:
            parts.append(text[m.end():].strip())
            text = text[:m.start()]
            break
        parts.append(text[m.end():m.end() + close.start()].strip())
        text = text[:m.start()] + text[m.end() + close.end():]
    return Answer(text=text.strip(), reasoning="\n\n".join(p for p in parts if p))


# -- code fences ----------------------------------------------------------------------------------------
def fences(text: str) -> list[tuple[str, str]]:
    """(tag, body) of every fenced block, in order; a block left open runs to the end of the answer."""
    return [(m.group(2).lower(), m.group(3).rstrip("\n").rstrip("`").rstrip("\n")) for m in FENCE.finditer(text)]


def code_blocks(text: str) -> list[str]:
    """The C# blocks of an answer: those tagged as C#, else the untagged ones."""
    blocks = fences(text)
    tagged = [b for t, b in blocks if t in CSHARP_TAGS]
    if tagged:
        return [b.strip("\n") for b in tagged if b.strip()]
    return [b.strip("\n") for t, b in blocks if t not in OTHER_CODE and b.strip()]


# -- JSON -------------------------------------------------------------------------------------------------
def json_answer(text: str, keys: tuple[str, ...] = ()) -> tuple[dict | None, JsonProblem | None]:
    """The first JSON object (fenced blocks first, then the prose), or a problem to tell the model."""
    problem = None
    for tag, body in fences(text):
        if tag in ("json", "", "jsonc", "json5"):
            obj, problem_here = lenient_json.first_object(body, keys)
            if obj is not None:
                return obj, None
            problem = problem or problem_here
    obj, problem_here = lenient_json.first_object(text, keys)
    if obj is not None:
        return obj, None
    return None, problem if problem is not None and "no JSON" not in str(problem_here) else problem_here


def tool_call(obj: dict) -> tuple[object, object]:
    """(tool name, arguments) of a text-protocol call; accepts `name`, `function`, `parameters`, string args."""
    inner = obj.get("function") if isinstance(obj.get("function"), dict) else obj
    name = inner.get("tool", inner.get("name", inner.get("tool_name")))
    if isinstance(obj.get("function"), str) and name is None:
        name = obj["function"]
    args = next((inner[k] for k in ("arguments", "parameters", "args", "input") if k in inner), None)
    if isinstance(args, str):
        try:
            args = lenient_json.loads(args) if args.strip() else {}
        except ValueError:
            pass
    return name, {} if args is None else args


# -- reflection ------------------------------------------------------------------------------------------
def _marked_segments(text: str) -> list[tuple[int, int, str]]:
    """(marker start, segment end, segment text) for every MORE_CONTEXT marker at the start of a line."""
    marks = list(re.finditer(r"(?m)^" + _MARKER.pattern, text, re.I))
    out = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        out.append((m.start(), end, text[m.end():end]))
    return out


def _requests(segment: str) -> tuple[list[dict], int]:
    """Tool calls at the start of a MORE_CONTEXT segment, and how much of the segment they use."""
    body = segment.lstrip(" \t*_`")
    lead = len(segment) - len(body)
    stripped = body.lstrip()
    if stripped.lower().startswith("none"):
        line_end = body.find("\n")
        return [], lead + (len(body) if line_end < 0 else line_end)
    calls, used = [], 0
    for start, end, closed in lenient_json.spans(body, "{["):
        gap = body[used:start]
        if not _GAP.fullmatch(gap) or not closed:      # prose after the requests: stop there
            break
        try:
            value = lenient_json.loads(body[start:end])
        except ValueError:
            used = end
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                name, args = tool_call(item)
                if isinstance(name, str):
                    calls.append({"tool": name, "arguments": args})
        used = end
    if not calls and used == 0:                 # unreadable request: the rest of its line goes
        line_end = body.find("\n")
        return [], lead + (len(body) if line_end < 0 else line_end)
    tail = body[used:]
    fence_close = re.match(r"\s*`{3,}", tail)
    if fence_close:
        used += fence_close.end()
    return calls, lead + used


def more_context(text: str) -> list[dict]:
    """Tool calls requested by a reflection (`MORE_CONTEXT: {...}`, bold, or JSON on the next lines)."""
    calls = []
    for _, _, segment in _marked_segments(text):
        calls += _requests(segment)[0]
    return calls


def reflection_text(text: str) -> str:
    """The analysis without the MORE_CONTEXT requests."""
    out, cursor = [], 0
    for start, end, segment in _marked_segments(text):
        out.append(text[cursor:start])
        _, used = _requests(segment)
        cursor = end - len(segment) + used
    out.append(text[cursor:])
    kept = "\n".join(l for l in "".join(out).splitlines() if l.strip() not in ("```", "```json"))
    return re.sub(r"\n{3,}", "\n\n", kept).strip()
