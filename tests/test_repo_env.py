"""`verifier env build` (docs/repo-tasks.md "Building environments"): recipes read by allowlist, naming
the field; the content key of exact typed bytes (every field that changes the build changes it, the
name and where the repository lies do not); real builds from the corpus's git bundle and from a git
directory (no install steps: no Docker), cached on the second run, a name's link swapped to a
changed recipe's build; pruning of older builds and the disk bound. The build with install steps in
the language's image, graded through a server, is tests/test_repo_service.py's."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.tools.cli import main as verifier_cli
from sandbox.environments import (BUILDS, ENV_FILE, BuildDir, Recipe, RecipeError, build_all, build_key, read_recipe,
                                  recipe_from, referenced_keys, resolve_commit, to_prune, tree_bytes)

DATA = Path(__file__).parent / "data" / "repo_tasks"
BUNDLE = DATA / "repos" / "pytoolz+toolz.bundle"
ROWS = {r["instance_id"]: r for r in map(json.loads, (DATA / "tasks.jsonl").read_text().splitlines())}
PY = ROWS["pytoolz__toolz-5d95878603e7"]
SHA = "a" * 40
RECIPE = {"name": "toolz-1", "language": "python", "repo": str(BUNDLE), "commit": PY["base_commit"],
          "test_cmd": PY["test_cmd"]}


def write(tmp: Path, obj: dict, name: str = "r.json") -> str:
    (tmp / name).write_text(json.dumps(obj))
    return str(tmp / name)


@pytest.mark.parametrize("change, field", [
    ({"name": ".hidden"}, "'name'"), ({"name": "a/b"}, "'name'"), ({"language": "cobol"}, "'language'"),
    ({"report": "xml"}, "'report'"), ({"install": "pip install x"}, "'install'"), ({"install": [""]}, "'install'"),
    ({"network": 1}, "'network'"), ({"network": "true"}, "'network'"), ({"test_cmd": ""}, "'test_cmd'"),
    ({"commit": 7}, "'commit'"), ({"tests": "x"}, "'tests'"),
])
def test_a_bad_recipe_is_refused_naming_the_field(tmp_path: Path, change: dict, field: str) -> None:
    with pytest.raises(RecipeError, match=field):
        read_recipe(write(tmp_path, {**RECIPE, **change}))


def test_paths_are_the_recipe_files(tmp_path: Path) -> None:
    r = recipe_from({**RECIPE, "repo": "repos/x.bundle", "wheels": "w"}, tmp_path, "here")
    assert r.repo == str(tmp_path / "repos" / "x.bundle") and r.wheels == str(tmp_path / "w")


def key(r: Recipe, commit: str = SHA, image: str = "img1", wheels: tuple = ()) -> str:
    return build_key(r, commit, image, wheels)


def test_the_key_is_exact_and_covers_what_changes_the_build() -> None:
    base = Recipe(name="e", language="python", repo="/r", commit="main", test_cmd="pytest", install=("a",))
    k = key(base)
    assert k == key(Recipe(name="other", language="python", repo="/elsewhere", commit="HEAD", test_cmd="pytest",
                           install=("a",)))  # the name, the path and the ref do not change the build
    changed = [
        key(base, commit="b" * 40), key(base, image="img2"), key(base, wheels=(("x.whl", b"1" * 32),)),
        key(base, wheels=(("x.whl", b"2" * 32),)), key(Recipe(**{**base.__dict__, "language": "go"})),
        key(Recipe(**{**base.__dict__, "install": ("a ",)})), key(Recipe(**{**base.__dict__, "install": ("a", "")})),
        key(Recipe(**{**base.__dict__, "network": True})), key(Recipe(**{**base.__dict__, "test_cmd": "pytest "})),
        key(Recipe(**{**base.__dict__, "report": "pytest-log"})),
    ]
    assert k not in changed and len(set(changed)) == len(changed)
    plain = Recipe(name="e", language="python", repo="/r", commit="main", test_cmd="pytest")
    assert key(plain, image="img1") == key(plain, image="img2")  # no install steps: the image is not in the tree


def test_the_key_covers_the_collection_plugin_s_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plugin's record (test_sources) decides which patches are refused: a build made by another plugin is never
    reused; without install steps no collection runs, and the plugin is not in the key."""
    from sandbox import environments

    base = Recipe(name="e", language="python", repo="/r", commit="main", test_cmd="pytest", install=("a",))
    plain = Recipe(name="e", language="python", repo="/r", commit="main", test_cmd="pytest")
    before = key(base), key(plain)
    other = tmp_path / "sources_plugin.py"
    other.write_bytes(environments.PLUGIN.read_bytes() + b"\n")
    monkeypatch.setattr(environments, "PLUGIN", other)
    assert key(base) != before[0] and key(plain) == before[1]


def test_to_prune_takes_unreferenced_builds_oldest_first() -> None:
    builds = [BuildDir("a", 100, 1.0), BuildDir("b", 100, 3.0), BuildDir("c", 100, 2.0), BuildDir("d", 500, 0.5)]
    assert to_prune(builds, {"d"}, None, prune_all=False) == []
    assert to_prune(builds, {"d"}, None, prune_all=True) == ["a", "c", "b"]
    assert to_prune(builds, {"d"}, 750, prune_all=False) == ["a"]  # 800 -> 700
    assert to_prune(builds, {"d"}, 600, prune_all=False) == ["a", "c"]
    assert to_prune(builds, {"d"}, 10, prune_all=False) == ["a", "c", "b"]  # the one in use is never chosen
    assert to_prune(builds, {"d"}, 800, prune_all=False) == []


def test_a_bundle_needs_a_full_commit_id_and_a_directory_resolves_a_ref(tmp_path: Path) -> None:
    with pytest.raises(RecipeError, match="full 40-hex"):
        resolve_commit(Recipe(name="e", language="python", repo=str(BUNDLE), commit="tasks", test_cmd="x"))
    repo = tmp_path / "src"
    subprocess.run(["git", "clone", "-q", str(BUNDLE), str(repo)], check=True)
    r = Recipe(name="e", language="python", repo=str(repo), commit=PY["base_commit"][:10], test_cmd="x")
    assert resolve_commit(r) == PY["base_commit"]
    with pytest.raises(RecipeError, match="'commit'"):
        resolve_commit(Recipe(name="e", language="python", repo=str(repo), commit="no-such-ref", test_cmd="x"))


def test_a_build_is_cached_swapped_and_pruned(tmp_path: Path) -> None:
    root = tmp_path / "envs"
    first = build_all([write(tmp_path, RECIPE)], str(root), progress=lambda m: None)[0]
    env = root / "toolz-1"
    assert not first.cached and env.is_symlink() and (env / "repo" / "toolz" / "functoolz.py").is_file()
    assert not (env / "repo" / ".git").exists()
    assert json.loads((env / ENV_FILE).read_text())["language"] == "python"
    # the tree is the commit's: the fix's line is not there yet
    assert "instanceproperty(attrgetter('first'))" not in (env / "repo" / "toolz" / "functoolz.py").read_text()
    again = build_all([write(tmp_path, RECIPE)], str(root), progress=lambda m: None)[0]
    assert again.cached and again.key == first.key
    changed = build_all([write(tmp_path, {**RECIPE, "test_cmd": PY["test_cmd"] + " -x"})], str(root),
                        progress=lambda m: None)[0]
    assert not changed.cached and changed.key != first.key and referenced_keys(root) == {changed.key}
    assert sorted(p.name for p in (root / BUILDS).iterdir()) == sorted([first.key, changed.key])
    bound = build_all([write(tmp_path, {**RECIPE, "test_cmd": PY["test_cmd"] + " -x"})], str(root),
                      max_bytes=tree_bytes(root / BUILDS / changed.key), progress=lambda m: None)  # the older one goes
    assert bound[0].cached and [p.name for p in (root / BUILDS).iterdir()] == [changed.key]
    with pytest.raises(RuntimeError, match="over the bound"):  # the one in use stays, and says so
        build_all([write(tmp_path, {**RECIPE, "test_cmd": PY["test_cmd"] + " -x"})], str(root), max_bytes=0,
                  progress=lambda m: None)
    assert (env / ENV_FILE).is_file()


def test_the_cli_builds_prunes_and_refuses_a_real_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "envs"
    recipe = write(tmp_path, RECIPE)
    assert verifier_cli(["env", "build", recipe, "--environments", str(root)]) == 0
    first = capsys.readouterr().out.split()
    assert first[0] == "toolz-1" and first[2] == "built"
    other = write(tmp_path, {**RECIPE, "test_cmd": "true"}, "other.json")
    assert verifier_cli(["env", "build", other, "--environments", str(root), "--prune"]) == 0
    assert [p.name for p in (root / BUILDS).iterdir()] == [capsys.readouterr().out.split()[1]]
    (root / "mine").mkdir()
    assert verifier_cli(["env", "build", write(tmp_path, {**RECIPE, "name": "mine"}), "--environments", str(root)]) == 2
    assert "not a link made by `env build`" in capsys.readouterr().err and not any((root / "mine").iterdir())
    assert verifier_cli(["env", "build", write(tmp_path, {**RECIPE, "language": "cobol"}), "--environments", str(root)]) == 2
    assert verifier_cli(["env", "build", other, "--environments", str(root), "--max-disk-mb", "0"]) == 1
    assert "over the bound" in capsys.readouterr().err


def test_the_bench_of_repo_tasks_starts() -> None:
    """bench/repo_tasks.py is not part of the suite (it times Docker and gVisor); its options parse."""
    out = subprocess.run([sys.executable, str(Path(__file__).parent.parent / "bench" / "repo_tasks.py"), "--help"],
                         capture_output=True, text=True, check=True).stdout
    assert "--quick" in out and "--at-once" in out
