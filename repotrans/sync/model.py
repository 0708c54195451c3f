"""A model's edit of a changed member in `repotrans sync`: the prompt step `sync_edit` (old Java, new
Java, the Java diff, the port's current C# member), one answer, its C# block. Without a model (or with
`builtin`) the builtin policy's statement-level edit (policy.edit) is used."""
from __future__ import annotations

import asyncio
import difflib

from repotrans.agents.config import AgentConfig
from repotrans.agents.parse import code_blocks
from repotrans.errors import TaskError
from repotrans.index.model import Method
from repotrans.translator.edit import Edit
from repotrans.prompts import render


def java_text(m: Method) -> str:
    return f"{m.signature} {m.body or ';'}"


def java_diff(old: Method, new: Method) -> str:
    """The unified diff of the two Java members (declaration and body)."""
    return "".join(difflib.unified_diff(java_text(old).splitlines(keepends=True),
                                        java_text(new).splitlines(keepends=True), "old", "new", n=2)).rstrip("\n")


def sync_slots(old: Method, new: Method, current_cs: str, target_class: str, commits: tuple[str, ...] = (),
               lang_version: str = "6") -> dict:
    """The `sync` slot of the sync_edit template."""
    return {"sync": {"java_class": new.type_id.split(":", 1)[1], "target_class": target_class,
                     "old_java": java_text(old), "new_java": java_text(new), "java_diff": java_diff(old, new),
                     "current_cs": current_cs, "commits": list(commits), "lang_version": lang_version}}


def editor_for(config: AgentConfig):
    """The editor `run_sync` uses: None (the builtin policy's edit) or one that asks the model."""
    from repotrans.agents.providers import provider

    if provider(config.model.name).deterministic:
        return None
    from repotrans.agents.models import make_client

    client = make_client(config)

    def edit(old: Method, new: Method, current_text: str, resolver, *, member: Method | None = None,
             commits: tuple[str, ...] = (), **_) -> Edit:
        from autogen_core.models import UserMessage

        target_class = member.type_id.split(":", 1)[1] if member is not None else ""
        prompt = render("sync_edit", sync_slots(old, new, current_text, target_class, commits),
                        config.prompts.folder)
        result = asyncio.run(client.create([UserMessage(content=prompt, source="user")]))
        text = result.content if isinstance(result.content, str) else ""
        blocks = code_blocks(text)
        if not blocks:
            raise TaskError("the model's answer holds no C# block")
        usage = result.usage
        return Edit(blocks[0], "model", [f"prompt step sync_edit, {len(prompt)} characters"],
                    (usage.prompt_tokens + usage.completion_tokens) if usage else 0)

    return edit
