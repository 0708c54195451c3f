"""The user's prompt folder ([prompts] dir / --templates DIR): a template in it replaces the shipped
one of its name and only that one; the folder is resolved once by the CLI (relative to the file that
names it, or to the working directory for the flag) and checked (a folder, known names)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.agents.config import load_config
from repotrans.cli.main import build_parser
from repotrans.cli.options import load_settings
from repotrans.errors import ConfigError
from repotrans.prompts import render
from repotrans.prompts.render import TEMPLATE_DIR, render_system
from repotrans.shipped import CHECKOUT, shipped_folder
from tests.prompts.test_prompts import BASE, EXTRA


def test_the_checkout_reads_the_top_level_folders():
    assert shipped_folder("prompt_templates") == CHECKOUT / "prompt_templates" == TEMPLATE_DIR
    assert (shipped_folder("tools") / "get_source_class_info.json").is_file()
    assert (shipped_folder("tools") / "steps" / "run_tests.json").is_file()


def test_a_template_in_the_folder_replaces_the_shipped_one_of_its_name(tmp_path):
    text = (TEMPLATE_DIR / "generate.md.j2").read_text(encoding="utf-8")
    (tmp_path / "generate.md.j2").write_text(text + "\nMY HOUSE RULE: {{ input.target_class }}\n")
    (tmp_path / "system.md.j2").write_text("You port Java to C#, the house way.\n")
    mine, shipped = render("generate", BASE, tmp_path), render("generate", BASE)
    assert mine.endswith("MY HOUSE RULE: Acme.Geometry.Shapes.Circle\n") and "MY HOUSE RULE" not in shipped
    repair = {**BASE, **EXTRA["repair"]}
    assert render("repair", repair, tmp_path) == render("repair", repair)         # not in the folder: shipped
    assert render_system({"language": {}}, tmp_path) == "You port Java to C#, the house way.\n"


def test_an_included_part_is_replaced_too(tmp_path):
    (tmp_path / "_tools.md.j2").write_text("## Tools\n(none today)\n")
    assert "(none today)" in render("context", BASE, tmp_path) and "(none today)" not in render("context", BASE)


def test_the_file_names_the_folder_relative_to_itself(tmp_path):
    (tmp_path / "conf" / "mine").mkdir(parents=True)
    (tmp_path / "conf" / "repotrans.toml").write_text('[prompts]\ndir = "mine"\n')
    config = load_config(tmp_path / "conf" / "repotrans.toml", resolve=False)
    assert config.prompts.folder == (tmp_path / "conf" / "mine").resolve()


def test_the_flag_is_relative_to_the_working_directory_and_wins(tmp_path, monkeypatch):
    (tmp_path / "flagged").mkdir()
    (tmp_path / "filed").mkdir()
    (tmp_path / "repotrans.toml").write_text('[prompts]\ndir = "filed"\n')
    monkeypatch.chdir(tmp_path)
    args = build_parser().parse_args(["translate", "--source", "j", "--target", "c", "--function", "F.f()",
                                      "--templates", "flagged"])
    assert load_settings(args, {}).prompts.folder == tmp_path / "flagged"
    args = build_parser().parse_args(["translate", "--source", "j", "--target", "c", "--function", "F.f()"])
    assert load_settings(args, {}).prompts.folder == tmp_path / "filed"


def test_a_missing_folder_or_a_misspelt_template_is_one_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="is not a folder"):
        load_config(cli={"prompts": {"dir": str(tmp_path / "nowhere")}}, resolve=False)
    (tmp_path / "genrate.md.j2").write_text("typo\n")
    with pytest.raises(ConfigError, match="genrate.md.j2 replaces no shipped template; rename it to one of"):
        load_config(cli={"prompts": {"dir": str(tmp_path)}}, resolve=False)
    shutil.copy(TEMPLATE_DIR / "reflect.md.j2", tmp_path / "reflect.md.j2")
    (tmp_path / "genrate.md.j2").unlink()
    assert load_config(cli={"prompts": {"dir": str(tmp_path)}}, resolve=False).prompts.folder == tmp_path
