"""Reports over a run folder written by hand: exact Markdown tables, valid PNGs, a filterable HTML page."""
import json
import re
import shutil
import sqlite3
import subprocess
import sys

import matplotlib.image
import pytest

from repotrans.reports.report import write_report
from repotrans.runs.store import RunStore, TaskRecord
from repotrans.runs.tasks import task_dir_name
from repotrans.index.store import Index

TWICE = "Demo.Counter.Twice()"
RECORDS = [
    # config, dataset, task, status, prompt, completion, calls, seconds, cost, error
    ("full", "geo", TWICE, "passed", 100, 10, 2, 1.0, 0.01, None),
    ("full", "geo", "Demo.Counter.Half()", "compile_error", 300, 30, 4, 3.0, 0.03, None),
    ("full", "ledger", "Books.Post(Money)", "passed", 200, 20, 2, 2.0, 0.02, None),
    ("direct", "geo", TWICE, "passed", 50, 5, 1, 0.5, None, None),
    ("direct", "geo", "Demo.Counter.Half()", "test_failure", 50, 5, 1, 0.5, None, None),
    ("direct", "ledger", "Books.Post(Money)", "error", 0, 0, 0, 0.1, None, "ConnectionError: model server gone"),
]

EXPECTED_MD = """\
# repotrans report

## Compile and pass rates

| config | dataset | tasks | compile rate | pass rate | prompt tok/task | completion tok/task | calls/task | s/task | cost/task |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|
| direct | geo | 2 | 100.0% | 50.0% | 50 | 5 | 1.0 | 0.5 | - |
| direct | ledger | 1 | 0.0% | 0.0% | 0 | 0 | 0.0 | 0.1 | - |
| full | geo | 2 | 50.0% | 50.0% | 200 | 20 | 3.0 | 2.0 | 0.0200 |
| full | ledger | 1 | 100.0% | 100.0% | 200 | 20 | 2.0 | 2.0 | 0.0200 |
| direct | all | 3 | 66.7% | 33.3% | 33 | 3 | 0.7 | 0.4 | - |
| full | all | 3 | 66.7% | 66.7% | 200 | 20 | 2.7 | 2.0 | 0.0200 |

## Error types of unsolved tasks

| config | dataset | compilation error | test failure | runtime error | non-termination | task error |
|---|---|---:|---:|---:|---:|---:|
| direct | geo | 0 | 1 | 0 | 0 | 0 |
| direct | ledger | 0 | 0 | 0 | 0 | 1 |
| full | geo | 1 | 0 | 0 | 0 | 0 |
| full | ledger | 0 | 0 | 0 | 0 | 0 |
| direct | all | 0 | 1 | 0 | 0 | 1 |
| full | all | 1 | 0 | 0 | 0 | 0 |

## Overlap of solved tasks

| configs | solved by both |
|---|---:|
| direct & full | 1 |

| config | solved | solved by no other config |
|---|---:|---|
| direct | 1 | - |
| full | 2 | `ledger/Books.Post(Money)` |

## Failures by cause

### compilation error (1)

- `full / geo / Demo.Counter.Half()`: no test result was recorded

### task error (ConnectionError) (1)

- `direct / ledger / Books.Post(Money)`: ConnectionError: model server gone

### test failure (1)

- `direct / geo / Demo.Counter.Half()`: no test result was recorded

![rates](rates.png)

![errors](errors.png)

![overlap](overlap.png)
"""

JAVA = "package demo;\npublic class Counter {\n    private int count;\n    public int twice() {\n" \
       "        return count * 2;\n    }\n}\n"
CSHARP = "namespace Demo\n{\n    public class Counter\n    {\n        private int count;\n\n" \
         "        public int Twice()\n        {\n            return count * 2;\n        }\n    }\n}\n"
GENERATED = "public int Twice()\n{\n    return count + count;\n}"


@pytest.fixture
def run_dir(tmp_path):
    """A run folder as `repotrans ablate` leaves it: results, the geo dataset's indexes, one trajectory."""
    run = tmp_path / "run"
    store = RunStore(run)
    for config, dataset, task, status, prompt, completion, calls, seconds, cost, error in RECORDS:
        code = GENERATED if task == TWICE else None
        result = {"status": status, "diagnostics": [], "failures": [], "exceptions": [], "tests_run": 4,
                  "tests_failed": 0, "timings": {}, "log_tail": ""} if status == "passed" else None
        store.add(TaskRecord(config=config, dataset=dataset, task_id=task, status=status, prompt_tokens=prompt,
                             completion_tokens=completion, model_calls=calls, seconds=seconds, cost=cost,
                             error=error, code=code, result=result, rounds=1 if status == "passed" else 0))
    pair = tmp_path / "pair"
    (pair / "java" / "demo").mkdir(parents=True)
    (pair / "java" / "demo" / "Counter.java").write_text(JAVA)
    (pair / "cs").mkdir()
    (pair / "cs" / "Counter.cs").write_text(CSHARP)
    (pair / "dataset.json").write_text(json.dumps({"name": "geo", "source": "java", "target": "cs", "tasks": []}))
    store.set_meta("datasets", {"geo": str(pair)})
    store.close()
    shutil.copytree(pair / "cs", run / "datasets" / "geo" / "target")
    Index.open(run / "datasets" / "geo" / "workspace").build(pair / "java", run / "datasets" / "geo" / "target",
                                                             progress=False)
    Index.open(run / "datasets" / "geo" / "oracle-index").build(pair / "java", pair / "cs", progress=False)
    traj = run / "tasks" / "full" / "geo" / task_dir_name(TWICE)
    traj.mkdir(parents=True)
    entries = [{"kind": "task", "t": 0.0, "source": "source:demo.Counter.twice()", "target": "target:" + TWICE},
               {"kind": "model", "t": 0.5, "agent": "refine", "step": "generate",
                "messages": [{"role": "UserMessage", "content": "Translate twice() <now>"}],
                "response": "```csharp\n" + GENERATED + "\n```"},
               {"kind": "attempt", "t": 1.0, "agent": "refine", "step": "generate", "n": 1, "code": GENERATED,
                "result": {"status": "passed", "reason": ""}}]
    (traj / "trajectory.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    return run


def test_report_markdown_tables_are_exact(run_dir):
    assert write_report([run_dir]) == run_dir / "report.md"
    assert (run_dir / "report.md").read_text() == EXPECTED_MD


def test_report_plots_are_valid_pngs(run_dir, tmp_path):
    out = tmp_path / "summary"
    write_report([run_dir], out)
    for name in ("rates.png", "errors.png", "overlap.png"):
        data = (out / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", name
        pixels = matplotlib.image.imread(out / name)
        assert pixels.shape[0] > 200 and pixels.shape[1] > 300 and pixels.std() > 0.01, name
    assert (out / "report.md").read_text() == EXPECTED_MD
    assert not (run_dir / "report.md").exists() and (run_dir / "report.html").is_file()


def test_report_html_lists_every_task_failures_first_with_its_status_filter(run_dir):
    write_report([run_dir])
    page = (run_dir / "report.html").read_text()
    tasks = re.findall(r'<details class="task" data-status="([a-z_]+)" data-config="([a-z-]+)">\n'
                       r'<summary><b class="\w+">\1</b>\n\2 / (\w+) / <code>([^<]+)</code>', page)
    assert sorted(tasks) == sorted((s, c, d, t.replace("<", "&lt;")) for c, d, t, s, *_ in RECORDS)
    assert [s for s, *_ in tasks] == ["compile_error", "error", "test_failure", "passed", "passed", "passed"]
    assert re.findall(r'<h3 class="cause">([^<]+)</h3>', page) == [
        "compilation error (1)", "task error (ConnectionError) (1)", "test failure (1)"]
    options = re.findall(r'<option value="([a-z_-]*)">', page)
    assert options == ["", "compile_error", "error", "passed", "test_failure"]
    assert "function filt()" in page and 'onchange="filt()"' in page
    twice = page[page.index('data-config="full">\n<summary><b class="passed">passed</b>\nfull / geo / <code>'
                            'Demo.Counter.Twice()'):]
    twice = twice[:twice.index('<details class="task"')] if '<details class="task"' in twice else twice
    assert "public int twice() {" in twice                                   # the Java source, from the index
    diff = twice[twice.index("<h4>Diff against the ground truth</h4>"):twice.index("<h4>Test outcome</h4>")].strip()
    assert diff == ('<h4>Diff against the ground truth</h4><pre>--- ground truth\n+++ generated\n@@ -1,4 +1,4 @@\n'
                    ' public int Twice()\n {\n<span class="del">-    return count * 2;</span>\n'
                    '<span class="add">+    return count + count;</span>\n }</pre>')   # margins do not count
    link = 'href="tasks/full/geo/' + task_dir_name(TWICE) + '/trajectory.jsonl">Trajectory (3 steps)</a>'
    assert link in twice and "Translate twice()" not in page       # linked, never inlined
    assert (run_dir / "tasks" / "full" / "geo" / task_dir_name(TWICE) / "trajectory.jsonl").is_file()
    assert '<div class="headline">ConnectionError: model server gone</div>' in page
    assert page.count("Diff against the ground truth") == 2     # the two Twice() tasks; no empty box elsewhere
    assert page.index('id="summary"') < page.index('id="failures"') < page.index('id="classes"') \
        < page.index('id="passed"')


def test_report_reindexes_indexes_of_another_version(run_dir):
    for name in ("workspace", "oracle-index"):
        db = sqlite3.connect(run_dir / "datasets" / "geo" / name / "index.sqlite")
        db.execute("PRAGMA user_version=1")
        db.close()
    write_report([run_dir])
    page = (run_dir / "report.html").read_text()
    assert "public int twice() {" in page and '<span class="add">+    return count + count;</span>' in page


def test_report_cli_rejects_a_folder_without_results(tmp_path):
    run = subprocess.run([sys.executable, "-m", "repotrans.cli", "report", str(tmp_path)], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr == f"repotrans: error: {tmp_path} is not a run folder (no results.sqlite)\n"


def test_unvalidated_datasets_are_labelled_in_the_report(tmp_path):
    from repotrans.datasets.dataset import Dataset

    ds_dir = tmp_path / "quick"
    ds_dir.mkdir()
    Dataset(name="quick", root=ds_dir, source="java", target="cs", tasks=[], validated=False).save()
    run = tmp_path / "run"
    store = RunStore(run)
    store.set_meta("datasets", {"quick": str(ds_dir), "gone": str(tmp_path / "missing")})
    store.add(TaskRecord(config="full", dataset="quick", task_id=TWICE, status="passed"))
    store.add(TaskRecord(config="full", dataset="gone", task_id=TWICE, status="passed"))
    store.close()
    md = write_report([run]).read_text()
    assert "**Unvalidated datasets: quick**" in md
    assert "| full | quick (unvalidated) | 1 |" in md and "| full | gone | 1 |" in md
    assert "Unvalidated datasets: quick" in (run / "report.html").read_text()


def test_fallbacks_and_calls_saved_reach_the_run_store_the_batch_summary_and_the_report(tmp_path):
    from repotrans.runs.batch_summary import BatchSummary
    from repotrans.reports.report import markdown
    from repotrans.runs.store import RunStore, TaskRecord

    small = {"identical_requests_avoided": 1, "repeated_candidates_avoided": 2,
             "fallbacks": [{"step": "rag_decide", "reason": "2 unusable answers", "default": "retrieval"},
                           {"step": "context", "reason": "2 unusable answers", "default": "the plan"}]}
    store = RunStore(tmp_path)
    store.add(TaskRecord("smollm2", "sample", "A.B()", "passed", model_calls=7, progress=small))
    store.add(TaskRecord("smollm2", "sample", "A.C()", "compile_error", model_calls=5,
                         progress={"fallbacks": [{"step": "context", "reason": "x", "default": "the plan"}]}))
    records = store.records()
    assert records[0].progress == small and records[1].fallbacks == ["context"]
    summary = BatchSummary.of(2, records, seconds=1.0).render()
    assert ("model calls: 12 (6.0 per task); fallbacks: context 2, rag_decide 1; identical requests avoided: 1; "
            "repeated candidates not judged again: 2") in summary
    report = markdown(records)
    assert "## Fallbacks and calls saved" in report
    assert "| smollm2 | sample | 2 | 6.0 | context 2, rag_decide 1 | 1 | 2 |" in report
    from repotrans.reports.html import render_page

    page = render_page(tmp_path)
    assert "fallbacks: context 2, rag_decide 1; identical requests avoided: 1" in page
    assert "fell back: rag_decide, context" in page


def test_a_run_store_of_the_previous_schema_gains_the_progress_column(tmp_path):
    import sqlite3

    from repotrans.runs.store import RunStore, TaskRecord

    store = RunStore(tmp_path)
    store.add(TaskRecord("c", "d", "A.B()", "passed"))
    store.close()
    db = sqlite3.connect(tmp_path / "results.sqlite")
    db.execute("CREATE TABLE old AS SELECT config, dataset, task_id, status, compiled, passed, rounds, prompt_tokens, "
               "completion_tokens, model_calls, seconds, cost, code, result_json, error, finished_at FROM results")
    db.execute("DROP TABLE results")
    db.execute("ALTER TABLE old RENAME TO results")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    store = RunStore(tmp_path)
    assert [(r.task_id, r.progress) for r in store.records()] == [("A.B()", None)]
    store.add(TaskRecord("c", "d", "A.C()", "passed", progress={"identical_requests_avoided": 1}))
    assert store.records()[1].saved("identical_requests_avoided") == 1
