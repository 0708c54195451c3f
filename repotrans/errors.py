"""One family of errors. Each carries a one-line message meant for the user or the batch log.

- ConfigError: the run cannot start (bad flags, missing repository, no model configured); a batch stops.
  NothingToDo, a ConfigError, exits 1: the inputs are valid but select nothing (no type pairs, no task).
- InputError: one request is wrong (unknown signature, unknown class); `did_you_mean` lists close matches.
- TaskError: one task failed (model server gone, runner broke); a batch records it and goes on.
  ModelServerError, a TaskError, says which server and model and what to do; a batch stops after
  several in a row (the server, not the task, is at fault).
"""
from __future__ import annotations


class RepotransError(Exception):
    def __init__(self, message: str, did_you_mean: list[str] | None = None):
        super().__init__(message)
        self.message = message
        self.did_you_mean = did_you_mean or []

    def __str__(self) -> str:
        if self.did_you_mean:
            return f"{self.message} (did you mean: {', '.join(self.did_you_mean[:5])}?)"
        return self.message


class ConfigError(RepotransError):
    pass


class NothingToDo(ConfigError):
    """Valid inputs that select nothing: the command stops with exit code 1 (not 2) and says why."""
    exit_code = 1


class InputError(RepotransError):
    pass


class TaskError(RepotransError):
    pass


class ModelServerError(TaskError):
    pass


def is_model_server_error(recorded: str | None) -> bool:
    """Whether a task's recorded error (`Type: message`) was a ModelServerError (or one of its kinds,
    all named ModelServer...)."""
    return bool(recorded) and recorded.split(":", 1)[0].startswith("ModelServer")
