"""One tiny request to the configured model, for `doctor`: does the server answer, and what."""
from __future__ import annotations

import time
from dataclasses import replace

from repotrans.agents.config import ModelConfig, api_key
from repotrans.agents.providers import provider
from repotrans.agents.server_errors import describe, server_url
from repotrans.agents.timeouts import default_timeout

PROMPT = "Reply with the single word: pong"
PING_TOKENS = 16


def ping(model: ModelConfig) -> tuple[bool | None, str]:
    """(ok, line): True with the answer and its time, False with what to do, None when there is no
    server to ask (no model configured, or the offline builtin policy). It waits as a batch's request
    would: [model] timeout, else its default for a 16-token answer (timeouts.TIMEOUT_DEFAULT)."""
    if not model.name:
        return None, "no model configured (--model, REPOTRANS_MODEL or [model] name); nothing to ask"
    if provider(model.name).offline:
        return True, f"{model.name}: an offline provider, no server to ask"
    import openai

    waits = model.timeout if model.timeout is not None else default_timeout(PING_TOKENS)
    quick = replace(model, timeout=waits, max_retries=0)
    client = openai.OpenAI(base_url=quick.base_url, api_key=api_key() or "not-needed", timeout=quick.timeout,
                           max_retries=0)
    started = time.monotonic()
    try:
        answer = client.chat.completions.create(model=model.name, max_tokens=PING_TOKENS, temperature=0,
                                                messages=[{"role": "user", "content": PROMPT}])
    except Exception as exc:      # every failure is described for the user, none raised
        return False, str(describe(exc, quick))
    finally:
        client.close()
    seconds = time.monotonic() - started
    choice = (answer.choices or [None])[0]
    text = " ".join(((choice.message.content if choice else None) or "").split())[:60]
    usage = answer.usage
    tokens = f", {usage.prompt_tokens} + {usage.completion_tokens} tokens" if usage else ", no usage reported"
    if not choice:
        return False, f"{server_url(model)} (model {model.name!r}) answered without choices in {seconds:.1f} s"
    return True, (f"{server_url(model)} (model {model.name!r}) answered {text!r} in {seconds:.1f} s{tokens}"
                  if text else f"{server_url(model)} (model {model.name!r}) answered with no text in "
                               f"{seconds:.1f} s{tokens} (a reasoning model may need more max_tokens)")
