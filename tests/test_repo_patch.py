"""The model's patch (docs/repo-tasks.md "The patch" and "Trust model"): near misses of a valid patch
are refused with a clear detail, rewrites of it read as the same canonical bytes, real gold patches
of the corpus read and apply as their original."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from sandbox.repo.patch import (PatchError, check_config_sections, check_protected, command_files, protected_reason,
                                read_patch)

CORPUS = Path(__file__).parent / "data" / "repo_tasks"

GOOD = ("diff --git a/pkg/mod.py b/pkg/mod.py\n"
        "index 3b18e51..a2c4f8e 100644\n"
        "--- a/pkg/mod.py\n"
        "+++ b/pkg/mod.py\n"
        "@@ -1,4 +1,4 @@\n"
        " def f(x):\n"
        "-    return x + 1\n"
        "+    return x + 2\n"
        " \n"
        " \n"
        "@@ -10,3 +10,4 @@ def g(y):\n"
        "     a = 1\n"
        "     b = 2\n"
        "     return a\n"
        "+# done\n")
NEW_FILE = """diff --git a/pkg/new.py b/pkg/new.py
new file mode 100644
--- /dev/null
+++ b/pkg/new.py
@@ -0,0 +1,2 @@
+X = 1
+Y = 2
"""


def canonical(text: str) -> str:
    return read_patch(text).text


def refused(text: str, *words: str) -> str:
    with pytest.raises(PatchError) as e:
        read_patch(text)
    for w in words:
        assert w in str(e.value), str(e.value)
    return str(e.value)


# ----------------------------------------------------------------------------- rewrites: the same patch
def without_prefixes(text: str) -> str:
    lines = [line for line in text.split("\n") if not line.startswith(("diff --git", "index ", "new file mode"))]
    return "\n".join(line.replace("--- a/", "--- ").replace("+++ b/", "+++ ") for line in lines)


REWRITES = {
    "bare": lambda t: t,
    "fenced diff": lambda t: f"Here is the fix.\n\n```diff\n{t}```\n\nThis changes f.",
    "fenced patch": lambda t: f"```patch\n{t}```",
    "fenced untagged": lambda t: f"```\n{t}```",
    "fenced tildes": lambda t: f"~~~diff\n{t}~~~\n",
    "CRLF": lambda t: t.replace("\n", "\r\n"),
    "CRLF fenced": lambda t: f"```diff\n{t}```\n".replace("\n", "\r\n"),
    "no a/ b/ prefixes": without_prefixes,
    "no git header": lambda t: "\n".join(line for line in t.split("\n") if not line.startswith(("diff --git", "index ", "new file"))),
    "prose before a bare diff": lambda t: f"The bug is in f.\n\n{t}",
    "prose after a bare diff": lambda t: f"{t}\nThis should fix it.\n",
    "reasoning first": lambda t: f"<think>```diff\n--- a/x\n+++ b/x\n```</think>```diff\n{t}```",
    "end tokens after": lambda t: f"```diff\n{t}```<|im_end|>",
    "timestamps on headers": lambda t: t.replace("--- a/pkg/mod.py", "--- a/pkg/mod.py\t2024-01-01 00:00:00")
                                         .replace("+++ b/pkg/mod.py", "+++ b/pkg/mod.py\t2024-01-01 00:00:00"),
    "a python fence beside the diff block": lambda t: f"```python\nprint(1)\n```\n```diff\n{t}```",
}


@pytest.mark.parametrize("name", sorted(REWRITES))
def test_a_rewritten_patch_reads_as_the_same_bytes(name: str) -> None:
    assert canonical(REWRITES[name](GOOD)) == canonical(GOOD)
    assert canonical(REWRITES[name](NEW_FILE)) == canonical(NEW_FILE)


def test_the_canonical_form_has_git_headers_and_prefixes() -> None:
    patch = read_patch(without_prefixes(GOOD) + without_prefixes(NEW_FILE))
    assert patch.text.startswith("diff --git a/pkg/mod.py b/pkg/mod.py\n--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,4 +1,4 @@\n")
    assert "diff --git a/pkg/new.py b/pkg/new.py\nnew file mode 100644\n--- /dev/null\n+++ b/pkg/new.py\n" in patch.text
    assert [(f.path, f.change) for f in patch.files] == [("pkg/mod.py", "modified"), ("pkg/new.py", "added")]


def test_a_deletion_and_a_blank_context_line_read() -> None:
    gone = "diff --git a/old.py b/old.py\ndeleted file mode 100644\n--- a/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n"
    assert read_patch(gone).files[0].change == "deleted"
    # An editor that strips trailing spaces turns a blank context line " " into "": read as context.
    assert canonical(GOOD.replace("+    return x + 2\n \n", "+    return x + 2\n\n")) == canonical(GOOD)


# ----------------------------------------------------------------------------- near misses: refused
def test_a_truncated_hunk_is_refused() -> None:
    refused(GOOD.rsplit("\n", 3)[0] + "\n", "does not parse", "shorter")
    refused(f"```diff\n{GOOD.rsplit(chr(10), 3)[0]}\n```", "does not parse")


def test_an_unclosed_fence_is_refused() -> None:
    refused(f"```diff\n{GOOD}", "not closed")


def test_wrong_hunk_counts_are_refused() -> None:
    refused(GOOD.replace("@@ -1,4 +1,4 @@", "@@ -1,5 +1,5 @@"), "does not parse")
    refused(GOOD.replace("@@ -1,4 +1,4 @@", "@@ -1,3 +1,3 @@"), "does not parse", "Unexpected hunk")
    refused(GOOD.replace("@@ -10,3 +10,4 @@", "@@ -10,3 +10,3 @@"))
    refused(f"```diff\n{GOOD}+extra\n```", "outside every hunk")


def test_a_hunk_that_changes_nothing_is_refused() -> None:
    """git apply calls it corrupt: refused here, so a patch that reads is one git can apply."""
    refused(GOOD.replace("-    return x + 1\n+    return x + 2\n", "     return x + 1\n"), "changes nothing")


def test_two_diffs_are_refused() -> None:
    refused(f"```diff\n{GOOD}```\nor\n```diff\n{NEW_FILE}```", "2 diff blocks")
    refused(GOOD + GOOD, "names this file twice")
    refused(f"{NEW_FILE}\nor, fenced:\n```diff\n{GOOD}```", "outside its ```diff block")
    refused(f"```diff\n{GOOD}```\nand also\n{without_prefixes(NEW_FILE)}", "outside its ```diff block")


@pytest.mark.parametrize("path", ["../etc/passwd", "pkg/../../x.py", "/etc/passwd", "pkg//mod.py", "./pkg/mod.py",
                                  ".git/hooks/pre-commit", "pkg\\mod.py", "pkg/mo\x01d.py"])
def test_a_path_out_of_the_tree_is_refused(path: str) -> None:
    patch = NEW_FILE.replace("pkg/new.py", path)
    refused(patch)
    refused(without_prefixes(patch))


def test_modes_symlinks_binaries_and_submodules_are_refused() -> None:
    refused("diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n", "mode")
    refused(NEW_FILE.replace("new file mode 100644", "new file mode 100755"), "mode")
    refused(NEW_FILE.replace("new file mode 100644", "new file mode 120000"), "symlinks")
    refused(NEW_FILE.replace("new file mode 100644", "new file mode 160000"), "submodules")
    refused("diff --git a/x.png b/x.png\nindex 1234567..89abcde 100644\nBinary files a/x.png and b/x.png differ\n", "binary")
    refused("diff --git a/x.bin b/x.bin\nindex 1234567..89abcde 100644\nGIT binary patch\nliteral 3\nKcmZ>Y\n\n", "binary")


def test_renames_and_copies_are_refused() -> None:
    onto_conftest = "diff --git a/helper.py b/tests/conftest.py\nsimilarity index 100%\nrename from helper.py\nrename to tests/conftest.py\n"
    refused(onto_conftest, "rename")
    refused(onto_conftest.replace("rename", "copy"), "cop")
    refused("--- a/helper.py\n+++ b/conftest.py\n@@ -1 +1 @@\n-a\n+b\n", "renames are not admitted")


def test_a_git_header_naming_another_file_is_refused() -> None:
    refused(GOOD.replace("diff --git a/pkg/mod.py b/pkg/mod.py", "diff --git a/conftest.py b/conftest.py"))
    refused(NEW_FILE.replace("diff --git a/pkg/new.py b/pkg/new.py", "diff --git a/conftest.py b/conftest.py"))


def test_no_diff_at_all_is_refused() -> None:
    refused("I would change f to return x + 2.", "no unified diff")
    refused("```python\ndef f(x):\n    return x + 2\n```", "no ```diff block")
    refused("", "no unified diff")


# ----------------------------------------------------------------------------- protected paths
@pytest.mark.parametrize("path", ["tests/test_mod.py", "conftest.py", "pkg/conftest.py", "pytest.ini", "tox.ini",
                                  "test/helpers.py", "pkg/testdata/in.txt", "version_test.go", "pkg/test_x.py",
                                  "sitecustomize.py", "evil.pth", "noxfile.py", "evil-1.0.dist-info/entry_points.txt",
                                  "src/x.egg-info/entry_points.txt", "x.egg-link"])
def test_a_patch_touching_test_code_or_config_is_refused(path: str) -> None:
    with pytest.raises(PatchError, match="protected path"):
        check_protected(read_patch(NEW_FILE.replace("pkg/new.py", path)))


@pytest.mark.parametrize("path", ["pkg/mod.py", "setup.py", "pyproject.toml", "setup.cfg", "version.go", "contest.py",
                                  "pkg/testing_utils.py", "attest.py"])
def test_a_patch_to_code_passes_the_protected_check(path: str) -> None:
    check_protected(read_patch(NEW_FILE.replace("pkg/new.py", path)))


def test_the_task_s_test_files_and_command_files_are_protected() -> None:
    command = command_files("bash ./run_tests.sh -x && python -m pytest spec/units.py::test_a")
    assert {"run_tests.sh", "spec/units.py"} <= command.written
    extra = ("lib/checks.py", *sorted(command.written))
    for path in ("lib/checks.py", "run_tests.sh", "spec/units.py"):
        assert protected_reason(path, extra)
        with pytest.raises(PatchError, match="test command"):
            check_protected(read_patch(NEW_FILE.replace("pkg/new.py", path)), extra)
    assert all(command_files("make test").names(p) for p in ("Makefile", "sub/makefile", "GNUmakefile"))
    go = command_files("go test -json ./...")
    assert not any(go.names(p) for p in ("version.go", "pkg/a.go", "Makefile")), go


PYPROJECT = '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n'
SETUP_CFG = "[metadata]\nname = x\n\n[tool:pytest]\naddopts = -q\n"


def test_pytest_sections_of_pyproject_and_setup_cfg_are_compared_as_data() -> None:
    before = {"pyproject.toml": PYPROJECT, "setup.cfg": SETUP_CFG}
    same = {"pyproject.toml": PYPROJECT.replace('name = "x"', 'name = "y"') + "\n# note\n",
            "setup.cfg": SETUP_CFG.replace("name = x", "name = y")}
    check_config_sections(before, same)
    for name, changed in (("pyproject.toml", PYPROJECT.replace('"-q"', '"-q -p evil"')),
                          ("pyproject.toml", PYPROJECT.replace("[tool.pytest.ini_options]", "[tool.pytest.ini_options]\npythonpath = ['.']")),
                          ("pyproject.toml", PYPROJECT + "[tool.pytest.other]\nx = 1\n"),
                          ("pyproject.toml", PYPROJECT + "not toml ["),
                          ("setup.cfg", SETUP_CFG.replace("-q", "-q -p evil")),
                          ("setup.cfg", "[tool:pytest\n")):
        with pytest.raises(PatchError, match=name):
            check_config_sections(before, {**before, name: changed})
    with pytest.raises(PatchError, match="setup.cfg"):  # a pytest section added where there was no file
        check_config_sections({}, {"setup.cfg": SETUP_CFG})


# ----------------------------------------------------------------------------- the corpus' real patches
def corpus_rows() -> list[dict]:
    return [json.loads(line) for line in (CORPUS / "tasks.jsonl").read_text().splitlines()]


def test_every_gold_patch_of_the_corpus_reads_passes_the_check_and_applies_as_written(tmp_path: Path) -> None:
    """Real diffs (git's output, Go and Python): read, admitted, and the canonical text is a patch
    git applies to the same tree as the original (checked with git apply --check on an empty index:
    same result)."""
    rows = corpus_rows()
    assert len(rows) >= 10
    for row in rows:
        patch = read_patch(row["patch"])
        check_protected(patch)
        assert patch.text.count("\n") == row["patch"].count("\n") - sum(
            1 for line in row["patch"].split("\n") if line.startswith("index "))
        assert read_patch(f"```diff\n{row['patch']}```\n".replace("\n", "\r\n")).text == patch.text
        with pytest.raises(PatchError, match="protected"):  # the dataset's test patch is protected
            check_protected(read_patch(row["test_patch"]))


def test_the_canonical_patch_applies_with_git(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("def f(x):\n    return x + 1\n\n\n" + "\n" * 5 + "    a = 1\n    b = 2\n    return a\n")
    patch = read_patch(without_prefixes(GOOD).replace("\n", "\r\n"))
    subprocess.run(["git", "apply", "-p1", "-"], cwd=tmp_path, input=patch.text, text=True, check=True)
    assert (tmp_path / "pkg" / "mod.py").read_text().endswith("return a\n# done\n")


@pytest.mark.parametrize(("cmd", "runners", "not_runners", "roots"), [
    ("cd tools && ./run.sh", {"tools/run.sh"}, {"pkg/run.sh"}, {"tools"}),
    ("PYTHONPATH=src:lib python3 -m pytest tests", set(), {"src/__init__.py"}, {"src", "lib"}),
    ("python3 scripts/test_runner.py", {"scripts/test_runner.py"}, set(), {"scripts"}),
    ("python3 -m pytest -p no:cacheprovider pkg/test_core.py", set(), {"pkg/test_core.py", "pkg/__init__.py"}, set()),
    ("python3 -m unittest pkg.tests.test_mod --cov=pkg.mod", {"unittest.py"}, {"pkg/__init__.py", "pkg/mod.py"}, set()),
    ("python3 -m tools.runner", {"tools/runner.py", "tools/runner/__main__.py"}, {"tools/__init__.py"}, set()),
    ("make -C build test", {"build/Makefile", "Makefile"}, {"pkg/Makefile"}, {"build"}),
    ("make -Cbuild test && make --directory=mk", {"build/Makefile", "mk/GNUmakefile"}, {"pkg/Makefile"}, {"build", "mk"}),
    ('go test -toolexec "$PWD/tools/wrap" ./...', {"tools/wrap"}, {"wrap"}, set()),
])
def test_the_command_s_runners_and_import_roots_are_read_by_path(cmd: str, runners: set, not_runners: set,
                                                                  roots: set) -> None:
    """The admission's reading (sandbox/repo/patch.py `_runners`): a runner by its path from the root or a folder the
    command enters, a test file only as a program, no dotted word but `-m`/`-p`'s; the folders it puts on sys.path."""
    read = command_files(cmd)
    assert runners <= read.runners and not (not_runners & read.runners), read.runners
    assert read.roots == roots
