"""JUnit -> NUnit by a model: the test-specific templates (translate_tests, repair_tests), a compile
check of the whole fixture against the port, compiler errors back to the model.

    test = asyncio.run(translate_with_model(client, java_file, draft, style, context, compile_file))

Where the file goes, its namespace, fixture name and the class under test come from the deterministic
translation (`draft`, junit.py); the model writes the text. An answer without a C# code block is
re-asked (bounded, as the Refine agent does); a candidate that repeats an earlier one (whitespace and
comments aside) is not compiled again and stops the repairs (refine.repeats). A fixture that never compiles is not written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from autogen_core.models import AssistantMessage, ChatCompletionClient, LLMMessage, SystemMessage, UserMessage

from repotrans.agents import candidate, parse
from repotrans.agents.base import MAX_FORMAT_RETRIES
from repotrans.agents.refine import repeats
from repotrans.agents.reply import read_reply
from repotrans.agents.state import Attempt
from repotrans.errors import TaskError
from repotrans.prompts import render
from repotrans.junit.translate import CATEGORY, TranslatedTest
from repotrans.junit.test_style import TestStyle

SYSTEM = ("You are repotrans, an engineer porting a Java repository to C#. You translate JUnit test classes "
          "into NUnit fixtures for the C# port. Answer in the format each request gives, nothing else.")
MAX_ERRORS_SHOWN = 12

# errors of the test file for a candidate text; an empty list: it compiles with the port
CompileCheck = Callable[[str], list[str]]


@dataclass
class ModelTest:
    test: TranslatedTest                 # the draft's placement with the model's text
    compiled: bool
    attempts: int
    errors: list[str] = field(default_factory=list)      # the last candidate's errors when it never compiled
    notes: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0


def style_slot(style: TestStyle) -> dict:
    """What the templates say about the port's test style."""
    return {"nunit_major": style.nunit_major, "assert_that": style.assert_that,
            "expected_exception_attribute": style.expected_exception_attribute,
            "method_casing": "camelCase" if style.lower_case_methods else "PascalCase",
            "fixture_setup": "TestFixtureSetUp" if style.nunit_major < 3 else "OneTimeSetUp",
            "fixture_teardown": "TestFixtureTearDown" if style.nunit_major < 3 else "OneTimeTearDown",
            "example": style.example or "(the port has no short test file to show)"}


def test_slots(java_text: str, draft: TranslatedTest, style: TestStyle, context: list[dict], lang_version: str,
               target_class: str | None) -> dict:
    """The slots of translate_tests/repair_tests; `context`: tool outputs as {"tool", "args", "output"}."""
    return {
        "tools": [],
        "style": style_slot(style),
        "test_input": {"java_path": draft.java_path, "java_text": java_text.strip(), "path": draft.path,
                       "namespace": draft.namespace, "fixture": draft.fixture, "under_test": draft.under_test,
                       "target_class": target_class or "", "category": CATEGORY, "lang_version": lang_version},
        "gathered_context": context,
        "port_calls": [],             # the learned API map is for members, not test files
        "last_command": [{"tool": c["tool"], "args": c["args"], "outcome": f"ok, see Gathered Context {n}"}
                         for n, c in enumerate(context, 1)],
    }


async def translate_with_model(client: ChatCompletionClient, java_file: Path, draft: TranslatedTest,
                               style: TestStyle, slots: dict, check: CompileCheck, rounds: int = 3,
                               templates: Path | None = None) -> ModelTest:
    """Ask for the fixture, compile it, repair it from the compiler errors up to `rounds` times
    (`templates`: the user's prompt templates folder, [prompts] dir)."""
    out = ModelTest(test=draft, compiled=False, attempts=0)
    attempts: list[Attempt] = []
    code = await _ask(client, render("translate_tests", slots, templates), out, "translate_tests")
    for n in range(rounds + 1):
        if code is None:
            break
        attempts.append(Attempt(code=code))
        same = repeats(attempts)
        if same is not None:           # judged already: never compiled again
            out.notes.append(f"repair stopped: candidate {len(attempts)} repeats candidate {same} "
                             "(whitespace and comments aside), not compiled again")
            attempts.pop()
            break
        out.attempts = len(attempts)
        errors = check(code)
        if not errors:
            out.compiled, out.errors = True, []
            out.test = TranslatedTest(draft.java_path, draft.path, draft.namespace, draft.fixture, _normal(code),
                                      _count_tests(code), draft.under_test, list(draft.notes))
            return out
        out.errors = errors
        if n == rounds:
            break
        shown = errors[:MAX_ERRORS_SHOWN] + ([f"... {len(errors) - MAX_ERRORS_SHOWN} more"]
                                             if len(errors) > MAX_ERRORS_SHOWN else [])
        prompt = render("repair_tests", {**slots, "code": code, "attempt": len(attempts),
                                         "result": "\n".join(f"- {e}" for e in shown)}, templates)
        code = await _ask(client, prompt, out, "repair_tests")
    return out


async def _ask(client: ChatCompletionClient, prompt: str, out: ModelTest, step: str) -> str | None:
    """The C# file of the answer; an answer without one is re-asked MAX_FORMAT_RETRIES times."""
    messages: list[LLMMessage] = [SystemMessage(content=SYSTEM), UserMessage(content=prompt, source="user")]
    for _ in range(MAX_FORMAT_RETRIES + 1):
        try:
            result = await client.create(messages)
        except TaskError:
            raise
        except Exception as exc:       # noqa: BLE001 - the server's own wording, one line, as a task error
            raise TaskError(f"{step}: the model call failed: {' '.join(str(exc).split())[:300]}") from exc
        out.prompt_tokens += result.usage.prompt_tokens if result.usage else 0
        out.completion_tokens += result.usage.completion_tokens if result.usage else 0
        reply = read_reply(result)
        text, _ = candidate.unescape(reply.text)
        blocks = [b for b in parse.code_blocks(text) if re.search(r"\bclass\s+\w+", b)]
        if blocks:
            code = max(blocks, key=len)
            fixture = out.test.fixture
            if f'"{CATEGORY}"' not in code:
                out.notes.append(f"{step}: the answer left out [Category(\"{CATEGORY}\")]; added")
            return labelled(code, fixture)
        out.notes.append(f"{step}: no C# code block holding a class")
        messages += [AssistantMessage(content=reply.text or reply.summary(), source="model"),
                     UserMessage(content="No ```csharp code block holding the test class found. Answer with one "
                                         "markdown code block tagged csharp holding the whole C# file.",
                                 source="user")]
    out.notes.append(f"{step}: no usable answer after {MAX_FORMAT_RETRIES + 1} tries")
    return None


def _normal(code: str) -> str:
    return code.strip("\n") + "\n"


def labelled(code: str, fixture: str) -> str:
    """The fixture with [Category("RepotransTranslated")] on its class, added when the model left it out:
    a verdict from it must always be labelled as a translated test's."""
    if f'"{CATEGORY}"' in code:
        return code
    m = re.search(r"^([ \t]*)(?:public\s+|internal\s+)?(?:sealed\s+)?class\s+" + re.escape(fixture) + r"\b", code, re.M) \
        or re.search(r"^([ \t]*)(?:public\s+|internal\s+)?(?:sealed\s+)?class\s+\w+", code, re.M)
    if m is None:
        return code
    return code[:m.start()] + f'{m.group(1)}[Category("{CATEGORY}")]\n' + code[m.start():]


def _count_tests(code: str) -> int:
    return len(re.findall(r"\[(?:Test|TestCase\b[^\]]*|TestCaseSource\b[^\]]*)\]\s*(?:\[[^\]]*\]\s*)*public", code))
