"""Reports over run folders: they read files and never re-run agents.

`write_report(run_dirs, out)` renders report.md (tables), rates.png, errors.png, overlap.png and,
for each run folder, <run>/report.html: every task with its Java source, the generated C#, a diff
against the ground truth, the test outcome and the agent trajectory, filterable by outcome.
"""
from __future__ import annotations

import difflib
import html
import json
from pathlib import Path

from repotrans.execution.status import BLOCKED, LABELS, NO_TESTS
from repotrans.experiments.metrics import intersections, overlap, rate_rows
from repotrans.experiments.plots import plot_errors, plot_rates, plot_upset
from repotrans.experiments.run_store import RunStore, TaskRecord
from repotrans.experiments.tasks import task_dir_name
from repotrans.index.store import Index


def load_records(run_dirs: list[Path]) -> list[TaskRecord]:
    records = []
    for d in run_dirs:
        if not (d / "results.sqlite").is_file():
            from repotrans.errors import ConfigError
            raise ConfigError(f"{d} is not a run folder (no results.sqlite)")
        store = RunStore(d)
        records += store.records()
        store.close()
    return records


def unvalidated_datasets(run_dirs: list[Path]) -> set[str]:
    """Names of the datasets of these runs that were built with --no-validate (their manifest says so)."""
    names: set[str] = set()
    for d in run_dirs:
        store = RunStore(d)
        roots = store.meta("datasets", {})
        store.close()
        for name, root in roots.items():
            ds = _load_dataset(root)
            if ds is not None and not ds.validated:
                names.add(name)
    return names


def markdown(records: list[TaskRecord], unvalidated: set[str] = frozenset()) -> str:
    rows = rate_rows(records)
    out = ["# repotrans report", ""]
    if unvalidated:
        out += [f"**Unvalidated datasets: {', '.join(sorted(unvalidated))}** (built with --no-validate: a task "
                "whose placeholder also passes counts as passed, so their rates may overstate).", ""]
    out += ["## Compile and pass rates", "",
           "| config | dataset | tasks | compile rate | pass rate | prompt tok/task | completion tok/task "
           "| calls/task | s/task | cost/task |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    def shown(dataset: str) -> str:
        return f"{dataset} (unvalidated)" if dataset in unvalidated else dataset

    for r in rows:
        cost = f"{r.cost:.4f}" if r.cost is not None else "-"
        out.append(f"| {r.config} | {shown(r.dataset)} | {r.tasks} | {100 * r.compile_rate:.1f}% | {100 * r.pass_rate:.1f}% "
                   f"| {r.prompt_tokens:.0f} | {r.completion_tokens:.0f} | {r.model_calls:.1f} | {r.seconds:.1f} | {cost} |")
    rare = (LABELS[BLOCKED], LABELS[NO_TESTS])        # columns only where they occur
    kinds = [k for k in LABELS.values() if k not in rare or any(k in r.errors for r in rows)]
    out += ["", "## Error types of unsolved tasks", "", "| config | dataset | " + " | ".join(kinds) + " |",
            "|---|---|" + "---:|" * len(kinds)]
    for r in rows:
        out.append(f"| {r.config} | {shown(r.dataset)} | " + " | ".join(str(r.errors.get(k, 0)) for k in kinds) + " |")
    ov = overlap(records)
    out += ["", "## Overlap of solved tasks", "", "| configs | solved by both |", "|---|---:|"]
    out += [f"| {pair} | {n} |" for pair, n in ov["pairs"].items()]
    out += ["", "| config | solved | solved by no other config |", "|---|---:|---|"]
    out += [f"| {c} | {ov['solved'][c]} | {', '.join(f'`{t}`' for t in ov['unique'][c]) or '-'} |"
            for c in ov["solved"]]
    out += ["", "![rates](rates.png)", "", "![errors](errors.png)", "", "![overlap](overlap.png)", ""]
    return "\n".join(out)


def write_report(run_dirs: list[Path], out: Path | None = None) -> Path:
    """Write the summary (report.md and PNGs) into `out` (default: the first run folder)."""
    out = out or run_dirs[0]
    out.mkdir(parents=True, exist_ok=True)
    records = load_records(run_dirs)
    rows = rate_rows(records)
    (out / "report.md").write_text(markdown(records, unvalidated_datasets(run_dirs)))
    plot_rates(rows, out)
    plot_errors(rows, out)
    plot_upset(intersections(records), sorted({r.config for r in records}), out)
    for d in run_dirs:
        write_html(d)
    return out / "report.md"


# ---- the per-run HTML page ------------------------------------------------------------------------

_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>repotrans run {title}</title>
<style>
body{{font-family:sans-serif;margin:1.5em;}} pre{{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:12px}}
details.task{{border:1px solid #ccc;margin:.3em 0;padding:.3em}} .passed{{color:#080}} .failed{{color:#b00}}
.cols{{display:flex;gap:1em}} .cols>div{{flex:1;min-width:0}} .add{{background:#dfd}} .del{{background:#fdd}}
summary{{cursor:pointer}} .traj{{font-size:12px}}
</style></head><body>
<h1>repotrans run {title}</h1>
{banner}
<p>Show: <select id="f" onchange="filt()"><option value="">all</option>{options}</select>
<span id="n"></span></p>
{tasks}
<script>
function filt(){{var v=document.getElementById('f').value,n=0;
document.querySelectorAll('details.task').forEach(function(d){{var s=!v||d.dataset.status==v||d.dataset.config==v;
d.style.display=s?'':'none';if(s)n++;}});document.getElementById('n').textContent=n+' tasks';}}
filt();
</script></body></html>"""


def write_html(run_dir: Path) -> Path:
    records = load_records([run_dir])
    indexes = _indexes(run_dir)
    statuses = sorted({r.status for r in records})
    configs = sorted({r.config for r in records})
    options = "".join(f'<option value="{html.escape(v)}">{html.escape(v)}</option>' for v in statuses + configs)
    tasks = "\n".join(_task_html(run_dir, r, indexes) for r in records)
    unvalidated = unvalidated_datasets([run_dir])
    banner = (f"<p><b>Unvalidated datasets: {html.escape(', '.join(sorted(unvalidated)))}</b> (built with "
              "--no-validate: their passes may overstate)</p>" if unvalidated else "")
    page = _PAGE.format(title=html.escape(run_dir.name), options=options, tasks=tasks, banner=banner)
    path = run_dir / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


def _indexes(run_dir: Path) -> dict[str, tuple[Index | None, Index | None]]:
    """dataset -> (index the agents saw, oracle index of the complete port) when the run has them.

    An index written by another repotrans version is re-indexed from the dataset's repositories
    (named in the run store) rather than shown empty."""
    store = RunStore(run_dir)
    roots = store.meta("datasets", {})
    store.close()
    found: dict[str, tuple[Index | None, Index | None]] = {}
    for ds_dir in sorted((run_dir / "datasets").glob("*")):
        repos = _dataset_repos(roots.get(ds_dir.name))
        found[ds_dir.name] = (_open_index(ds_dir / "workspace", repos and (repos[0], ds_dir / "target")),
                              _open_index(ds_dir / "oracle-index", repos))
    if (run_dir / "workspace" / "index.sqlite").is_file():      # a batch run
        found["*"] = (_open_index(run_dir / "workspace", None), None)
    return found


def _load_dataset(root: str | None):
    """The dataset of a folder, or None when it is gone or unreadable."""
    from repotrans.errors import ConfigError
    from repotrans.experiments.datasets import load_dataset

    if root is None:
        return None
    try:
        return load_dataset(Path(root))
    except ConfigError:
        return None


def _dataset_repos(root: str | None) -> tuple[Path, Path] | None:
    """(Java repo, complete port) of a dataset folder, or None when it is gone or unreadable."""
    ds = _load_dataset(root)
    return None if ds is None else (ds.source_dir, ds.target_dir)


def _open_index(workdir: Path, repos: tuple[Path, Path] | None) -> Index | None:
    if not (workdir / "index.sqlite").is_file():
        return None
    index = Index.open(workdir)
    if not index.files("target") and repos is not None and all(r.is_dir() for r in repos):
        index.build(repos[0], repos[1], progress=False)
    return index


def _method_text(index: Index | None, method_id: str | None) -> str | None:
    if index is None or method_id is None:
        return None
    m = index.method(method_id)
    if m is None:
        return None
    return (index.root(m.side) / m.path).read_bytes()[m.start_byte:m.end_byte].decode("utf-8", "replace")


def _task_html(run_dir: Path, r: TaskRecord, indexes: dict) -> str:
    view, oracle = indexes.get(r.dataset) or indexes.get("*") or (None, None)
    traj_dir = run_dir / "tasks" / r.config / r.dataset / task_dir_name(r.task_id)
    if not traj_dir.is_dir():
        traj_dir = run_dir / "tasks" / task_dir_name(r.task_id)
    entries = _trajectory(traj_dir / "trajectory.jsonl")
    source_id = next((e.get("source") for e in entries if e.get("kind") == "task"), None)
    java = _dedent_member(_method_text(view, source_id) or "(not available)")
    truth = _method_text(oracle, "target:" + r.task_id)
    code = r.code or "(no candidate)"
    diff = ("\n".join(_diff_lines(_dedent_member(truth), _dedent_member(code))) if truth is not None
            else "(no ground truth for this run)")
    outcome = _outcome(r)
    cls = "passed" if r.passed else "failed"
    return (f'<details class="task" data-status="{r.status}" data-config="{html.escape(r.config)}">'
            f'<summary><b class="{cls}">{r.status}</b> {html.escape(r.config)} / {html.escape(r.dataset)} / '
            f'<code>{html.escape(r.task_id)}</code> — {r.rounds} repair rounds, '
            f'{r.prompt_tokens + r.completion_tokens} tokens{html.escape(_token_notes(entries))}</summary>'
            f'<div class="cols"><div><h4>Java</h4><pre>{html.escape(java)}</pre></div>'
            f'<div><h4>Generated C#</h4><pre>{html.escape(code)}</pre></div></div>'
            f'<h4>Diff against the ground truth</h4><pre>{diff}</pre>'
            f'<h4>Test outcome</h4><pre>{html.escape(outcome)}</pre>'
            f'<details class="traj"><summary>Trajectory ({len(entries)} steps)</summary>{_traj_html(entries)}'
            f'</details></details>')


def _token_notes(entries: list[dict]) -> str:
    """Cached vs spent and the candidate's additions, from the trajectory's final entry."""
    done = next((e for e in reversed(entries) if e.get("kind") == "done"), None) or {}
    t, adds = done.get("tokens") or {}, done.get("additions") or {}
    notes = []
    if t.get("cached_calls"):
        notes.append(f"{t['cached_calls']} of {t['calls']} calls from the response cache "
                     f"({t.get('replayed_prompt', 0)} prompt tokens not spent)")
    if t.get("server_cached_prompt"):
        notes.append(f"{t['server_cached_prompt']} prompt tokens from the server's cache")
    if t.get("unreported_calls"):
        notes.append(f"{t['unreported_calls']} calls without usage")
    if adds.get("usings") or adds.get("helpers"):
        brought = adds.get("usings", []) + [f"helper {h}" for h in adds.get("helpers", [])]
        notes.append("candidate brings " + ", ".join(brought))
    return " (" + "; ".join(notes) + ")" if notes else ""


def _dedent_member(text: str) -> str:
    """A member cut from its file keeps the file's indentation after its first line; drop it (the
    closing line's indentation) so that a diff shows changed code, not moved margins."""
    lines = text.splitlines()
    if len(lines) < 2:
        return text
    margin = lines[-1][:len(lines[-1]) - len(lines[-1].lstrip())]
    return "\n".join([lines[0]] + [line[len(margin):] if line.startswith(margin) else line.lstrip()
                                    for line in lines[1:]])


def _diff_lines(truth: str, code: str) -> list[str]:
    out = []
    for line in difflib.unified_diff(truth.splitlines(), code.splitlines(), "ground truth", "generated", lineterm=""):
        cls = "add" if line.startswith("+") and not line.startswith("+++") else (
            "del" if line.startswith("-") and not line.startswith("---") else "")
        out.append(f'<span class="{cls}">{html.escape(line)}</span>' if cls else html.escape(line))
    return out or ["(identical)"]


def _outcome(r: TaskRecord) -> str:
    if r.error:
        return r.error
    if not r.result:
        return r.status
    from repotrans.execution.results import TestResult

    result = TestResult.from_json(r.result)
    return result.brief() + (f"\ntests: {result.selection}" if result.selection else "")


def _trajectory(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _traj_html(entries: list[dict]) -> str:
    parts = []
    for e in entries:
        kind = e.get("kind")
        head = f"{e.get('t', 0):7.2f}s {kind} {e.get('agent', '')} {e.get('step', '')}"
        if kind == "model":
            prompt = "\n\n".join(str(m.get("content")) for m in e.get("messages", []))
            body = f"PROMPT\n{prompt}\n\nRESPONSE\n{e.get('response')}"
        elif kind == "tool":
            body = f"{e.get('tool')}({json.dumps(e.get('args'))})\n{json.dumps(e.get('output'), indent=1)[:4000]}"
        elif kind == "attempt":
            result = e.get("result") or {}
            body = f"{e.get('code')}\n\n-> {result.get('status')} {result.get('reason', '')}"
        else:
            body = json.dumps({k: v for k, v in e.items() if k not in ("kind", "t")}, indent=1, default=str)[:4000]
        parts.append(f"<details><summary>{html.escape(head)}</summary><pre>{html.escape(body)}</pre></details>")
    return "".join(parts)
