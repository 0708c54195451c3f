"""Ablations end to end on two sample tasks: the agents see the masked view, the oracle the complete port."""
import json
from dataclasses import replace
from pathlib import Path

import pytest

from repotrans.agents.config import load_config
from repotrans.errors import ConfigError
from repotrans.runs.ablate import configs_for, run_ablation, spread
from repotrans.datasets.build import build_dataset
from repotrans.reports.report import write_report
from repotrans.index.placeholders import is_placeholder
from repotrans.index.store import Index

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "datasets" / "sample"
TASKS = ["Acme.Common.StringUtils.Repeat(string, int)", "Acme.Geo.GeometryMath.AlmostEqual(double, double)"]


def test_spread_samples_evenly_and_deterministically():
    assert spread(list(range(10)), 3) == [0, 3, 6]
    assert spread(list(range(3)), 5) == [0, 1, 2] and spread(list(range(4)), None) == [0, 1, 2, 3]


def test_unknown_configuration_is_a_config_error():
    with pytest.raises(ConfigError, match="unknown configuration no-such") as err:
        configs_for(["full", "no-such"], load_config(cli={"model": {"name": "builtin"}}))
    assert "no-rag" in str(err.value)


@pytest.mark.slow
def test_the_judge_of_an_ablation_leaves_out_the_tests_its_dataset_found_failing_before_any_change(tmp_path):
    build_dataset(SAMPLE / "java", SAMPLE / "csharp", tmp_path / "ds", name="mini", select=TASKS[:1],
                  validate=False, progress=False)
    data = json.loads((tmp_path / "ds" / "dataset.json").read_text())
    data["fails_before_any_change"] = {"Acme.Geo.Tests:Acme.Common.StringUtilsTests.Windows": "a path separator",
                                       "Acme.Geo.Tests:Acme.Common.StringUtilsTests.Mine": "the dataset's reason"}
    (tmp_path / "ds" / "dataset.json").write_text(json.dumps(data))
    base = load_config(cli={"model": {"name": "builtin"}})
    base = replace(base, execution=replace(base.execution, known_failures=(
        ("Acme.Geo.Tests:Acme.Common.StringUtilsTests.Mine", "the user's reason"),)))
    seen = []

    class Capture:                           # the executor: what each configuration's tasks are judged with
        def run(self, work, pending, folder):
            seen.append((work.config_name, work.config.execution.known_failures))
            return []

        def close(self):
            pass

    run_ablation([tmp_path / "ds"], configs_for(["direct", "no-rag"], base), tmp_path / "run", progress=False,
                 executor=Capture())
    expected = (("Acme.Geo.Tests:Acme.Common.StringUtilsTests.Mine", "the user's reason"),
                ("Acme.Geo.Tests:Acme.Common.StringUtilsTests.Windows", "a path separator"))
    assert seen == [("direct", expected), ("no-rag", expected)]


@pytest.mark.slow
def test_ablation_judges_on_the_complete_port_and_resumes(tmp_path):
    ds = build_dataset(SAMPLE / "java", SAMPLE / "csharp", tmp_path / "ds", name="mini", select=TASKS,
                       validate=False, progress=False)
    assert sorted(t.id for t in ds.tasks) == TASKS
    base = load_config(cli={"model": {"name": "builtin"}})
    configs = configs_for(["no-rag", "direct"], base)
    assert (configs["direct"].agents.refine, configs["no-rag"].agents.rag, configs["no-rag"].agents.refine) == \
        (False, False, True)
    run = tmp_path / "run"
    store = run_ablation([tmp_path / "ds"], configs, run, progress=False)
    records = store.records()
    assert [(r.config, r.dataset, r.task_id) for r in records] == \
        [(c, "mini", t) for c in ("direct", "no-rag") for t in TASKS]
    assert [r.status for r in records if r.config == "no-rag"] == ["passed", "passed"]
    for r in records:                        # every candidate was judged by the oracle
        assert r.code and r.result["status"] == r.status and r.model_calls >= 1
        if r.passed:                         # on the covering tests of the complete port
            assert r.result["tests_run"] > 0 and r.result["tests_failed"] == 0
    store.close()
    seen = Index.open(run / "datasets" / "mini" / "workspace")
    assert all(is_placeholder(seen.method("target:" + t).body) for t in TASKS)   # what the agents saw
    finished = {(r.config, r.task_id): r.finished_at for r in records}
    again = run_ablation([tmp_path / "ds"], configs, run, progress=False)          # nothing left to do
    assert {(r.config, r.task_id): r.finished_at for r in again.records()} == finished
    again.close()
    assert "| no-rag | mini (unvalidated) | 2 | 100.0% | 100.0% |" in write_report([run]).read_text()
    assert (run / "report.html").read_text().count('<details class="task"') == 4
