"""Real batches on the masked sample (IsBlank and FormatNumber masked) with a scripted model, for the end-to-end
attack tests: the oracle answers every step right except the scripted members, which get the candidates of
their script in turn; one `repotrans batch` over a fake OpenAI server; the members' texts and final statuses."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Iterator

from repotrans.cli import main
from repotrans.index.store import Index
from tests.support.fake_openai_server import FakeOpenAIServer
from tests.support.oracle_model import OracleModel
from tests.support.sample_masking import SAMPLE

IS_BLANK, FORMAT = "Acme.Common.StringUtils.IsBlank(string)", "Acme.Common.StringUtils.FormatNumber(double, int)"


class ScriptedModel(OracleModel):
    """The oracle (every step right), except that a member named in `scripts` gets the candidates of its script in
    turn ("right", or a kind `wrong(name, kind)` writes; the last one again when the script runs out)."""

    def __init__(self, index, scripts: dict[str, list[str]], wrong: Callable[[str, str], str]):
        super().__init__(index)
        self.scripts, self.wrong, self.turn = scripts, wrong, {}

    def __call__(self, body: dict):
        prompt = body["messages"][-1]["content"]
        header = prompt.split("\n", 1)[0]
        if "translate the method" in header or "repair the translation" in header:
            member = self._member(prompt)
            name = member.name
            if name in self.scripts:
                n = self.turn[name] = self.turn.get(name, -1) + 1
                kind = self.scripts[name][min(n, len(self.scripts[name]) - 1)]
                code = self._truth(member) if kind == "right" else self.wrong(name, kind)
                return f"```csharp\n{code}\n```"
        return super().__call__(body)


def sample_index(tmp_path_factory) -> Iterator[Index]:
    """The complete sample's index (what the oracle knows), for a module-scoped fixture."""
    index = Index.open(tmp_path_factory.mktemp("sample-index"))
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    yield index
    index.close()


def run_batch(model: ScriptedModel, java: Path, cs: Path, tmp: Path, config: str, workdir: Path,
              *flags: str) -> tuple[int, dict]:
    """`repotrans batch` of `java` into `cs` with `model` over HTTP and `config` as repotrans.toml, its run folder
    tmp/run; the exit status and summary.json."""
    (tmp / "repotrans.toml").write_text(config)
    run = tmp / "run"
    with FakeOpenAIServer(responder=model) as server:
        rc = main(["batch", "--source", str(java), "--target", str(cs), "--run-dir", str(run), "--config",
                   str(tmp / "repotrans.toml"), "--workdir", str(workdir), "--model", "coder", "--base-url",
                   server.base_url, "--quiet", *flags])
    return rc, json.loads((run / "summary.json").read_text())


def member_text(cs: Path, name: str) -> str:
    """IsBlank's or FormatNumber's whole text in StringUtils.cs under `cs`."""
    text = (cs / "src" / "Acme.Geo" / "Common" / "StringUtils.cs").read_text()
    start = text.index(f"public static {'bool' if name == 'IsBlank' else 'string'} {name}(")
    depth, i = 0, text.index("{", start)
    while True:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i + 1]
        i += 1


def same(a: str, b: str) -> bool:
    """The same member text but for indentation (--write indents a member as its file does)."""
    return a.split() == b.split()


def truth(name: str) -> str:
    return member_text(SAMPLE / "csharp", name)


def statuses(tmp: Path) -> dict[str, str]:
    """Member name -> its final status, a failure of any kind (test_failure, runtime_error) as "failed"."""
    found = {d.name.split("_", 1)[0].rsplit(".", 1)[1]: json.loads((d / "result.json").read_text())["status"]
             for d in (tmp / "run" / "tasks").iterdir() if (d / "result.json").is_file()}
    return {k: "failed" if v in ("test_failure", "runtime_error") else v for k, v in found.items()}
