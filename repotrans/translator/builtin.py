"""BuiltinChatClient: an AutoGen ChatCompletionClient answered by the offline deterministic policy.

Like any model it reads the prompt it is given: the step from the prompt's heading, the Java method and
the target signature from its Input slot, the tool calls from Gathered Context and Last Command, the
candidate and its test result from a reflect or repair prompt (policy.reading). What a model would
read in a tool's output, it looks up through a read-only view of the repository (the index and the
mapping, given at construction): it runs the calls the prompt lists again and reads the candidates'
Java bodies by id. It never sees the agents' state. Token counts are whitespace word counts, so the
agents' usage bookkeeping stays meaningful without a tokenizer.
"""
from __future__ import annotations

from typing import Any, Literal, Mapping, Optional, Sequence

from autogen_core import CancellationToken
from autogen_core.models import (CreateResult, LLMMessage, ModelCapabilities, ModelInfo,
                                 RequestUsage, UserMessage)
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel

from repotrans.agents.config import AgentConfig
from repotrans.agents.one_shot import OneShotClient
from repotrans.errors import ConfigError, TaskError
from repotrans.index.model import Method
from repotrans.mapping.task import TranslationTask
from repotrans.mapping.fields import renamed_fields
from repotrans.translator.base_calls import base_arguments
from repotrans.translator.boundary import stored_values
from repotrans.translator.constants import constants_of
from repotrans.translator.helpers import removed_helpers
from repotrans.translator.implementation import implementation
from repotrans.translator.removed_types import removed_type_helpers
from repotrans.translator.reading import StepPrompt, read_prompt
from repotrans.translator.resolver import renamed_members
from repotrans.translator.steps import ANSWERS, StepRequest, jdk_imports, library_imports
from repotrans.prompts.slots import method_text
from repotrans.tools import ToolContext, run_tool

MODEL_INFO = ModelInfo(vision=False, function_calling=False, json_output=True, family="builtin",
                       structured_output=False)
CONTEXT_WINDOW = 1_000_000


def _words(messages: Sequence[LLMMessage]) -> int:
    return sum(len(str(m.content).split()) for m in messages)


class BuiltinChatClient(OneShotClient):
    """Deterministic offline 'model': same prompt, same answer. `view` is the repository it may look
    things up in (a ToolContext without a task: index and mapping)."""

    def __init__(self, view: ToolContext, api_map: bool = True):
        self.view = view
        self.api_map = api_map          # read the port's learned API map (off: the ablation row)
        self._renames: dict[str, str] | None = None
        self._paired: set[str] | None = None
        self._last = RequestUsage(prompt_tokens=0, completion_tokens=0)
        self._total = RequestUsage(prompt_tokens=0, completion_tokens=0)

    async def create(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = [],
                     tool_choice: Tool | Literal["auto", "required", "none"] = "auto",
                     json_output: Optional[bool | type[BaseModel]] = None,
                     extra_create_args: Mapping[str, Any] = {},
                     cancellation_token: Optional[CancellationToken] = None) -> CreateResult:
        request = self.read(messages)
        text = ANSWERS[request.step](request)
        self._last = RequestUsage(prompt_tokens=_words(messages), completion_tokens=len(text.split()))
        self._total = RequestUsage(prompt_tokens=self._total.prompt_tokens + self._last.prompt_tokens,
                                   completion_tokens=self._total.completion_tokens + self._last.completion_tokens)
        return CreateResult(finish_reason="stop", content=text, usage=self._last, cached=False)

    def read(self, messages: Sequence[LLMMessage]) -> StepRequest:
        """The step request of a conversation: its first user message is the step prompt (a correction
        appended after a bad answer changes nothing: same prompt, same answer)."""
        prompt = next((m.content for m in messages if isinstance(m, UserMessage) and isinstance(m.content, str)), "")
        shown = read_prompt(prompt)
        if shown.step not in ANSWERS:
            raise TaskError("the builtin policy has no answer for this prompt (no known step heading: "
                            f"{prompt.lstrip()[:60]!r})")
        java, target = self._methods(shown)
        index = self.view.index
        java = implementation(index, java)     # an interface method's Java code is its one implementation
        ctx = self.view.for_task(TranslationTask(target.id, java.id))     # shares the view's lookups
        bodies = []
        for source_id, _ in shown.candidates:
            method = self.view.index.method(source_id)
            bodies.append(method.body if method is not None else "")
        imports = getattr(index.file("source", java.path), "imports", [])
        return StepRequest(step=shown.step, java_method=java, target_method=target,
                           outputs=[(tool, args, run_tool(ctx, tool, args)) for tool, args in shown.gathered],
                           called=shown.called, candidate_bodies=bodies, code=shown.code, result=shown.result,
                           renames=self.renames(), suggested=shown.suggested,
                           api=ctx.task_api_map() if self.api_map else None, helpers=self.helpers(java, target),
                           constants=constants_of(index, self.renames(), java, target),
                           jdk_names=jdk_imports(imports), libraries=library_imports(imports),
                           stored=stored_values(index, self.view.mapping, java, target),
                           base_args=base_arguments(index, java, target))

    def renames(self) -> dict[str, str]:
        """Callees the port renamed, from the mapping (computed once per client)."""
        if self._renames is None:
            self._renames = renamed_members(self.view.mapping.method_matches) | \
                renamed_fields(self.view.index, self.view.mapping)
        return self._renames

    def helpers(self, java: Method, target: Method) -> list[Method]:
        """Methods of the Java class the port removed (no counterpart, no C# member of the name), and the
        static helpers of Java classes the port removed that the method calls (`Validate.notNull`)."""
        if self._paired is None:
            self._paired = {m.source_id for m in self.view.mapping.method_matches}
        index = self.view.index
        cs_members = index.methods(target.type_id)
        cs_names = {m.name for m in cs_members} | {f.name for f in index.fields(target.type_id)}
        own = [m for m in index.methods(java.type_id) if m.id != java.id]
        return removed_helpers(own, self._paired, cs_names, {(m.name, len(m.params)) for m in cs_members
                                                            if m.kind == "method"}) \
            + removed_type_helpers(index, self.view.mapping, java)

    def _methods(self, shown: StepPrompt) -> tuple[Method, Method]:
        """The Java method and the C# member the Input slot shows, found in the repository view."""
        index = self.view.index
        java = next((m for m in index.methods(f"source:{shown.java_class}") if method_text(m) == shown.java_text),
                    None)
        target = next((m for m in index.methods(f"target:{shown.target_class}")
                       if m.signature.strip() == shown.target_signature), None)
        if java is None or target is None:
            missing = (f"Java method of {shown.java_class}" if java is None
                       else f"C# member {shown.target_signature!r} of {shown.target_class}")
            raise TaskError(f"the builtin policy cannot find the prompt's {missing} in the index")
        return java, target

    async def close(self) -> None:
        """Nothing to release."""

    def actual_usage(self) -> RequestUsage:
        return self._last

    def total_usage(self) -> RequestUsage:
        return self._total

    def count_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []) -> int:
        return _words(messages)

    def remaining_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []) -> int:
        return CONTEXT_WINDOW - _words(messages)

    @property
    def capabilities(self) -> ModelCapabilities:  # type: ignore[override]
        return ModelCapabilities(vision=False, function_calling=False, json_output=True)  # type: ignore[typeddict-item]

    @property
    def model_info(self) -> ModelInfo:
        return MODEL_INFO


def make_client(config: AgentConfig, view: ToolContext | None) -> BuiltinChatClient:
    """`--model builtin`'s client (agents.providers.PROVIDERS names this function)."""
    if view is None:
        raise ConfigError("the builtin policy needs the repository (an index and its mapping) to look things up in")
    return BuiltinChatClient(view, api_map=config.agents.api_map)

