"""What the commands print: JSON results and the translate outcome (status, reason, rounds, tokens)."""
from __future__ import annotations

import json
from typing import Any


def print_json(obj: Any) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))


def outcome_lines(outcome, blocked: str | None, estimated: bool = False) -> list[str]:
    """translate's report after the code: the test outcome and why, rounds, tokens (`estimated`: word
    counts of the offline policy) and cost, run folder."""
    tests = f" ({outcome.result['tests_run']} tests run)" if outcome.result else ""
    cost = f", cost {outcome.cost:.4f}" if outcome.cost is not None else ""
    lines = [f"test outcome: {'blocked' if blocked else outcome.status}{tests}"]
    lines += [f"  {line}" for line in outcome_details(outcome.result, outcome.status, blocked)]
    lines.append(f"rounds: {outcome.repair_rounds} repair round(s), {outcome.attempts} candidate(s)")
    t = outcome.tokens
    extra = [f"{t['cached_calls']} answered by the response cache ({t['replayed_prompt']} prompt tokens not spent)"
             if t.get("cached_calls") else "",
             f"{t['server_cached_prompt']} prompt tokens from the server's prompt cache" if t.get("server_cached_prompt")
             else "", f"{t['unreported_calls']} without usage from the server" if t.get("unreported_calls") else ""]
    if estimated:
        extra.insert(0, "estimated: the offline builtin policy counts words, not tokens")
    extra_text = "; ".join(e for e in extra if e)
    lines.append(f"tokens: {t['prompt']} prompt + {t['completion']} completion spent in {t['calls']} model calls"
                 f"{' (' + extra_text + ')' if extra_text else ''}{cost}")
    lines.append(f"run: {outcome.run_dir}")
    return lines


def outcome_details(result: dict | None, status: str, blocked: str | None = None, shown: int = 6) -> list[str]:
    """What a person needs beside the status: why it failed (the first diagnostics or failing tests)
    and which tests were selected."""
    if not result:
        return []
    from repotrans.verdicts.results import TestResult

    res = TestResult.from_json(result)
    lines = [blocked] if blocked else res.brief().splitlines() if status != "passed" else []
    if len(lines) > shown + 1:
        lines = lines[:shown + 1] + ["... (the rest is in the run folder's result.json)"]
    return lines + ([f"tests: {res.selection}"] if res.selection else [])


def dataset_line(ds, out) -> str:
    """dataset build's summary: counts, where the manifest and the report are."""
    counts = (f"{len(ds.tasks)} validated tasks, {len(ds.dropped)} dropped" if ds.validated else
              f"{len(ds.tasks)} UNVALIDATED tasks (--no-validate: not checked against the tests)")
    return f"{ds.name}: {counts}; manifest {out / 'dataset.json'}, report {out / 'report.md'}"
