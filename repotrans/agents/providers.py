"""What a model provider is, declared once: code asks a provider these questions and never compares a
model's name. `--model builtin` is the offline deterministic translator; any other name is a model behind
an OpenAI-compatible endpoint; no name at all means no model wrote the code (the user's or the port's own)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Provider:
    """A provider's capabilities."""
    factory: str | None       # "module:function" building its client, imported on first use; None: an HTTP endpoint
    offline: bool             # answers without a server: nothing to ping, no network
    trusted: bool             # its code may run in the local sandbox when `auto` finds no Docker engine
    estimates_tokens: bool    # its token counts are estimates (no server reports usage)
    deterministic: bool       # the deterministic translator stands in for it where a step has one (sync edits, JUnit tests)


# `--model NAME` -> its provider (a name, not an import: the translator sits above the agents and registers
# nothing by being imported)
PROVIDERS: dict[str, Provider] = {
    "builtin": Provider("repotrans.translator.builtin:make_client", offline=True, trusted=True,
                        estimates_tokens=True, deterministic=True),
}
HTTP = Provider(None, offline=False, trusted=False, estimates_tokens=False, deterministic=False)
NO_MODEL = Provider(None, offline=True, trusted=False, estimates_tokens=False, deterministic=True)


def provider(name: str | None) -> Provider:
    """The provider of a configured model name: registered, an HTTP endpoint's model, or no model."""
    if not name:
        return NO_MODEL
    return PROVIDERS.get(name, HTTP)
