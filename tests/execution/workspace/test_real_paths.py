"""RealPaths.real resolves as Path.resolve does, through links to files and to folders, `..` and names that do
not exist, with each folder resolved once."""
from pathlib import Path

from repotrans.execution.workspace.real_paths import RealPaths


def test_real_paths_resolve_as_path_resolve(tmp_path: Path, monkeypatch):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "x.cs").write_text("class X {}")
    (tmp_path / "linked").symlink_to(tmp_path / "a")                       # a folder link
    (tmp_path / "a" / "y.cs").symlink_to(tmp_path / "a" / "b" / "x.cs")     # a file link
    paths = RealPaths()
    asked = [tmp_path / "linked" / "b" / "x.cs", tmp_path / "a" / "y.cs", tmp_path / "a" / "b" / ".." / "y.cs",
             tmp_path / "a" / "b" / "missing.cs", tmp_path / "nowhere" / "z.cs", tmp_path / "a" / "b" / "..",
             Path("relative.cs")]
    assert [paths.real(p) for p in asked] == [p.resolve() for p in asked]
    assert paths.real(asked[0]) == tmp_path.resolve() / "a" / "b" / "x.cs"
    assert paths.real(asked[1]) == tmp_path.resolve() / "a" / "b" / "x.cs"

    calls = []
    resolve = Path.resolve
    monkeypatch.setattr(Path, "resolve", lambda self, *a, **k: calls.append(self) or resolve(self, *a, **k))
    for name in ("p.cs", "q.cs", "r.cs"):
        paths.real(tmp_path / "linked" / "b" / name)
    assert calls == []                                    # the folder was resolved by the first call above
