"""`repotrans sync` through the model path against a scripted OpenAI-compatible server (the tests' fake
server), to show the sync_edit prompt slots on a real history and what the pipeline does with the answers.

  python scripts/sync_fake_server.py --oracle LATER_PORT -- sync --source JAVA_GIT --since A --until B \
      --target EARLIER_PORT --run-dir RUN [other sync options]

The server answers each sync_edit prompt with one C# member: with --oracle DIR, the member of the later
port (DIR) whose declaration matches the prompt's current C# member (what the port's maintainer wrote: an
upper bound for an editor), else the current member unchanged (a no-op model). Every prompt is kept in
RUN/prompts.jsonl; the script prints which slots each held and how many the oracle answered.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from repotrans.cli.main import main as cli_main  # noqa: E402
from repotrans.index.parse import parse_file, source_text  # noqa: E402
from tests.support.fake_openai_server import FakeOpenAIServer  # noqa: E402

SLOTS = ("### Old Java (the revision the port follows)", "### New Java", "### Java diff",
         "### The port's current C# member")
_CURRENT = re.compile(r"### The port's current C# member\s*```csharp\n(.*?)\n```", re.S)


def _norm(text: str) -> str:
    return " ".join(text.split())


def oracle_member(oracle: Path, current: str) -> str | None:
    """The later port's member declared as `current` is (same declaration text), or None."""
    name = re.search(r"(\w+)\s*(\(|\{|=>)", current)
    if name is None:
        return None
    for path in sorted(oracle.rglob("*.cs")):
        data = path.read_bytes()
        if name.group(1).encode() not in data:
            continue
        parsed = parse_file("target", path.relative_to(oracle).as_posix(), data, "")
        text = source_text(data).encode("utf-8")
        for m in parsed.methods:
            if m.name == name.group(1) and _norm(m.signature) in _norm(current):
                return text[m.start_byte:m.end_byte].decode("utf-8")
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oracle", type=Path, help="the later port: answer with its member")
    ap.add_argument("sync", nargs=argparse.REMAINDER, help="-- sync ARGS")
    args = ap.parse_args()
    argv = [a for a in args.sync if a != "--"]
    run = Path(argv[argv.index("--run-dir") + 1])
    seen, answered = [], []

    def respond(body: dict) -> str:
        prompt = "\n".join(m["content"] for m in body["messages"] if isinstance(m.get("content"), str))
        found = _CURRENT.search(prompt)
        current = found.group(1) if found else ""
        later = oracle_member(args.oracle, current) if args.oracle and current else None
        seen.append({"slots": [s for s in SLOTS if s in prompt], "chars": len(prompt), "oracle": later is not None})
        answered.append(later is not None)
        return f"```csharp\n{later or current}\n```"

    with FakeOpenAIServer(responder=respond) as server:
        code = cli_main([*argv, "--model", "fake-coder", "--base-url", server.base_url,
                         "--no-cache"])
    run.mkdir(parents=True, exist_ok=True)
    (run / "prompts.jsonl").write_text("".join(json.dumps(s) + "\n" for s in seen), encoding="utf-8")
    full = sum(len(s["slots"]) == len(SLOTS) for s in seen)
    print(f"fake server: {len(seen)} sync_edit prompt(s), {full} with all four slots "
          f"({', '.join(s[4:] for s in SLOTS)}); the oracle answered {sum(answered)}, the rest echoed")
    return code


if __name__ == "__main__":
    sys.exit(main())
