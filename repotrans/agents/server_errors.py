"""Model-server failures as one line that says where, what, and what to do.

Every message names the base URL and the model; each kind of failure gets its hint: nothing listening
("is the server running?"), 401 (the key variables), 404 (the path: does it end in /v1?), a timeout
(the `[model] timeout` setting and --model-timeout), 429 and 5xx (what the server said).
"""
from __future__ import annotations

import os

from repotrans.agents.config import API_KEY_VARS, ModelConfig
from repotrans.agents.window import ModelTimeout
from repotrans.errors import ModelServerError
from repotrans.redact import redact

OPENAI_URL = "https://api.openai.com/v1"


class ModelServerTimeout(ModelServerError, ModelTimeout):
    """A timeout worded for the user; still a ModelTimeout, so an optional step may give up on it."""


def server_url(model: ModelConfig) -> str:
    return model.base_url or OPENAI_URL


def describe(exc: BaseException, model: ModelConfig) -> ModelServerError:
    """A ModelServerError for an exception of the openai SDK (or the HTTP layer under it)."""
    import openai

    where = f"model server {server_url(model)} (model {model.name!r})"
    attempts = f"{model.max_retries + 1} attempt{'s' * (model.max_retries > 0)}"
    if isinstance(exc, ModelTimeout):
        what = f"{exc}; a slow or busy server needs more time: raise `timeout` under [model] in repotrans.toml " \
               "or pass --model-timeout SECONDS"
    elif isinstance(exc, openai.APITimeoutError):
        what = (f"no answer within {model.timeout or 0:g} s ({attempts}); a slow or busy server needs more time: raise "
                "`timeout` under [model] in repotrans.toml or pass --model-timeout SECONDS")
    elif isinstance(exc, openai.APIConnectionError):
        cause = _cause(exc)
        what = (f"unreachable{f' ({cause})' if cause else ''}; is the server running and listening there? "
                "Check --base-url / REPOTRANS_BASE_URL / [model] base_url")
    elif isinstance(exc, openai.APIStatusError):
        what = _status(exc, model, attempts)
    else:
        what = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    kind = ModelServerTimeout if isinstance(exc, ModelTimeout) else ModelServerError
    return kind(redact(f"{where}: {what}"))


def _status(exc, model: ModelConfig, attempts: str) -> str:
    code = exc.status_code
    said = _server_message(exc)
    told = f": {said}" if said else ""
    if code == 401:
        set_vars = [v for v in API_KEY_VARS if _env(v)]
        state = f"{' and '.join(set_vars)} set" if set_vars else "no key set"
        return (f"refused the API key (401{told}); put a valid key for this server in "
                f"{' or '.join(API_KEY_VARS)} ({state} now)")
    if code == 403:
        return f"forbids this request (403{told}); does the key have access to model {model.name!r}?"
    if code == 404:
        path = exc.request.url.path if getattr(exc, "request", None) is not None else "/chat/completions"
        return (f"has no {path} (404{told}); does the base URL end in /v1 (e.g. http://localhost:11434/v1)? "
                f"Is {model.name!r} a model this server serves?")
    if code == 429:
        return f"rate limit (429{told}) after {attempts}; lower --jobs or --model-calls, or wait"
    if code >= 500:
        return f"server error {code}{told} after {attempts}; see the server's log"
    return f"rejected the request ({code}{told})"


def _server_message(exc) -> str:
    body = getattr(exc, "body", None)
    msg = body.get("message") if isinstance(body, dict) else None
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        msg = body["error"].get("message")
    return " ".join(str(msg or "").split())[:200]


def _cause(exc: BaseException) -> str:
    inner = exc.__cause__ or exc.__context__
    while inner is not None and (inner.__cause__ or inner.__context__) is not None:
        inner = inner.__cause__ or inner.__context__
    return " ".join(str(inner).split())[:160] if inner is not None else ""


def _env(name: str) -> str | None:
    return os.environ.get(name)
