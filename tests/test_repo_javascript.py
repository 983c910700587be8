"""JavaScript repository tasks, `report: mocha-json` (docs/repo-tasks.md "Test results", "Trust model"): the
patch's allowlist for a javascript environment (no Docker), then the corpus's JavaScript task, jshttp/cookie
042073f1d679 "Fix expires option to reject invalid dates", built by `verifier env build` from its bundle and
graded by the in-process grader on Docker in the javascript image's Debian mocha: the gold patch is accepted;
an empty patch and a near miss (a wrong fix) are not; a patch to package.json, a `.mocharc`, a test file or
node_modules is refused before anything runs; a patch that keeps mocha from writing its report, or spoils
it, is the program's failure, never `accepted` and never `infra_error`. Then mocha decoys (sandbox/repo/decoys.py
`mocha_decoy`): the commands a decoy is known to load under, its copy of a FAIL_TO_PASS test under each interface
(run by the image's mocha on Docker: FAILED, every other test as it was), and a task none can be planted in
refused as the task's `error`."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from repo_corpus import ROWS, empty_patch, recipe, task
from sandbox.repo.patch import PatchError, check_admitted, command_paths, read_patch

COOKIE = ROWS["jshttp__cookie-042073f1d679"]  # 1 FAIL_TO_PASS ("serialize expires"), 21 PASS_TO_PASS
TREE = {"index.js": "file", "package.json": "file", "README.md": "file", "HISTORY.md": "file", "test": "dir",
        "test/serialize.js": "file", "lib": "dir", "lib/a.js": "file", ".mocharc.yml": "file"}


def add(path: str, line: str = "x") -> str:
    return f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+{line}\n"


def change(path: str, old: str = "a", new: str = "b") -> str:
    return f"--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-{old}\n+{new}\n"


def admit(diff: str, language: str = "javascript") -> None:
    extra = (*command_paths(COOKIE["test_cmd"]), *read_patch(COOKIE["test_patch"]).paths)
    check_admitted(read_patch(diff), language, TREE.get, extra)


@pytest.mark.parametrize("diff", [change("index.js"), change("lib/a.js"), add("lib/b.mjs"), add("lib/new/c.cjs"), add("d.js"),
                                  change("README.md"), change("HISTORY.md"), COOKIE["patch"]])
def test_a_javascript_patch_may_touch_sources_and_documentation(diff: str) -> None:
    admit(diff)


@pytest.mark.parametrize("diff, why", [
    (change("package.json"), "protected path"), (add("lib/package.json"), "protected path"),
    (change("package-lock.json"), "protected path"), (add(".npmrc"), "protected path"),
    (change(".mocharc.yml"), "protected path"), (add(".mocharc.js"), "protected path"), (add("lib/.mocharc.json"), "protected path"),
    (add("jest.config.js"), "protected path"), (add("babel.config.cjs"), "protected path"),
    (change("test/serialize.js"), "protected path"), (add("test/extra.js"), "protected path"),
    (add("lib/a.test.js"), "protected path"), (add("lib/a.spec.mjs"), "protected path"), (add("lib/__tests__/a.js"), "protected path"),
    (add("node_modules/safe-buffer/index.js"), "protected path"), (add("lib/node_modules/x/index.js"), "protected path"),
    (add("lib/data.json"), "only javascript source"), (add("lib/hook.node"), "only javascript source"),
    (change("Makefile"), "only javascript sources and documentation"), (add(".eslintrc.js"), "may read specially"),
    (add("lib/.hidden/a.js"), "may read specially"), (add("vendor/a.js"), "resolves specially"),
])
def test_a_javascript_patch_to_the_runner_s_files_is_refused(diff: str, why: str) -> None:
    with pytest.raises(PatchError, match=why):
        admit(diff)


def test_javascript_sources_are_admitted_only_in_a_javascript_environment() -> None:
    with pytest.raises(PatchError, match="only python source"):
        admit(add("lib/b.js"), "python")
    with pytest.raises(PatchError, match="only go source"):
        admit(add("lib/b.js"), "go")


def test_the_task_s_report_must_be_its_environment_s(tmp_path: Path) -> None:
    """A mocha-json task in a python environment, or a pytest one in a javascript environment, is the task's
    `error`: the allowlist the patch is checked by is the environment's language's."""
    import json

    from sandbox import SandboxConfig
    from sandbox.contract import parse_task
    from sandbox.repo_job import make_repo_plan

    for name, language in (("js", "javascript"), ("py", "python")):
        (tmp_path / name / "repo").mkdir(parents=True)
        (tmp_path / name / "environment.json").write_text(json.dumps({"language": language}))
    config = SandboxConfig(repo_environments=str(tmp_path))
    for name, report in (("js", "pytest"), ("py", "mocha-json")):
        plan = make_repo_plan(parse_task({"id": "t", "kind": "repo", "environment": name, "completion": add("a.js"),
                                          "test_cmd": "true", "fail_to_pass": ["t"], "report": report}), config)
        assert isinstance(plan, dict) and plan["verdict"] == "error" and "not one of a" in plan["detail"], plan


# ----------------------------------------------------------------------------- the real task, on Docker
# A wrong fix: the value checked to be a Date, an invalid one (NaN) still let through.
NEAR_MISS = COOKIE["patch"].replace("if (!isDate(expires) || isNaN(expires.valueOf())) {", "if (!isDate(expires)) {")
# Keeps mocha from writing its report (the process ends as index.js loads), or spoils the report after mocha wrote it.
INDEX_HEAD = "--- a/index.js\n+++ b/index.js\n@@ -20,6 +20,7 @@ exports.serialize = serialize;\n  * @private\n  */\n \n"
NO_REPORT = INDEX_HEAD + "+process.exit(0)\n var decode = decodeURIComponent;\n var encode = encodeURIComponent;\n \n"
SPOILED = INDEX_HEAD + ("+process.on('exit', function () { require('fs').writeFileSync(process.env.REPORT, '{\"stats\": ') })\n"
                        " var decode = decodeURIComponent;\n var encode = encodeURIComponent;\n \n")
PACKAGE_JSON = ('--- a/package.json\n+++ b/package.json\n@@ -1,3 +1,4 @@\n {\n+  "mocha": {"require": "./index.js"},\n'
                '   "name": "cookie",\n   "description": "HTTP server cookie parsing and serialization",\n')
MOCHARC = add(".mocharc.yml", "require: ./lib/hook.js") + add("lib/hook.js", "module.exports = {}")
TEST_FILE = ("--- a/test/serialize.js\n+++ b/test/serialize.js\n@@ -65,7 +65,7 @@ test('expires', function() {\n"
             "   }), 'foo=bar; Expires=Sun, 24 Dec 2000 10:30:59 GMT')\n \n"
             "   assert.throws(cookie.serialize.bind(cookie, 'foo', 'bar', {\n-    expires: Date.now()\n+    expires: new Date()\n"
             "   }), /option expires is invalid/);\n });\n \n")


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Path]]:
    from helpers import sandbox_config
    from sandbox.sync import SyncGrader
    from verifier.tools.cli import main as verifier_cli

    recipes, root = tmp_path_factory.mktemp("js-recipes"), tmp_path_factory.mktemp("js-environments")
    assert verifier_cli(["env", "build", recipe(COOKIE, recipes), "--environments", str(root)]) == 0
    config = sandbox_config("docker", languages=("javascript",), pool_size=1, pool_name="test-repo-js",
                           repo_environments=str(root), repo_pool_size=1)
    g = SyncGrader(config)
    assert g.grader.available, g.grader.unavailable_reason()
    try:
        yield g, root
    finally:
        g.close()


def grade(g: Any, name: str, completion: str) -> dict:
    from sandbox.contract import parse_task

    result = g.call(g.grader.grade_repo(parse_task(task(COOKIE, name, completion))))
    g.call(g.grader.settled())
    return result


@pytest.mark.docker
def test_the_gold_patch_is_accepted_and_every_listed_test_read_from_mocha_s_report(graded: tuple[Any, Path]) -> None:
    g, _ = graded
    result = grade(g, "gold", COOKIE["patch"])
    assert (result["verdict"], result["score"]) == ("accepted", 1.0), result
    statuses = {t["name"]: t["detail"] for t in result["tests"]}
    assert statuses == {**{t: "FAIL_TO_PASS: PASSED" for t in COOKIE["FAIL_TO_PASS"]},
                        **{t: "PASS_TO_PASS: PASSED" for t in COOKIE["PASS_TO_PASS"]}}


@pytest.mark.docker
@pytest.mark.parametrize("which", ["empty", "near-miss"])
def test_an_empty_patch_and_a_wrong_fix_fail_the_fail_to_pass_test(graded: tuple[Any, Path], which: str) -> None:
    g, root = graded
    completion = empty_patch(COOKIE, root) if which == "empty" else NEAR_MISS
    assert completion != COOKIE["patch"]
    result = grade(g, which, completion)
    assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0), result
    statuses = {t["name"]: t["detail"] for t in result["tests"]}
    assert statuses["serialize expires"] == "FAIL_TO_PASS: FAILED", statuses
    assert all(statuses[t] == "PASS_TO_PASS: PASSED" for t in COOKIE["PASS_TO_PASS"]), statuses


@pytest.mark.docker
@pytest.mark.parametrize("which, diff", [("package.json", PACKAGE_JSON), (".mocharc", MOCHARC), ("test file", TEST_FILE),
                                         ("node_modules", add("node_modules/cookie/index.js", "module.exports = {}"))])
def test_a_patch_to_the_runner_s_files_is_refused_before_anything_runs(graded: tuple[Any, Path], which: str, diff: str) -> None:
    g, _ = graded
    result = grade(g, which, COOKIE["patch"] + diff)
    assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0), result
    assert "protected path" in result["detail"] and not result["tests"], result


@pytest.mark.docker
@pytest.mark.parametrize("which, diff, why", [("no report", NO_REPORT, "mocha wrote no JSON report"),
                                              ("spoiled report", SPOILED, "does not parse")])
def test_a_report_the_patch_kept_from_being_written_is_the_program_s_failure(graded: tuple[Any, Path], which: str, diff: str,
                                                                              why: str) -> None:
    g, _ = graded
    result = grade(g, which, diff)
    assert (result["verdict"], result["score"]) == ("runtime_error", 0.0), result
    assert why in result["detail"], result


# ----------------------------------------------------------------------------- mocha decoys (sandbox/repo/decoys.py)
BDD_TEST = ("'use strict'\nvar assert = require('assert');\nvar lib = require('..');\n\ndescribe('lib', function () {\n"
            "  it('adds', function () {\n    assert.equal(lib.add(1, 2), 3)\n  });\n\n  it('adds more', function () {\n"
            "    assert.equal(lib.add(2, 2), 4)\n  });\n});\n")
TDD_TEST = BDD_TEST.replace("describe(", "suite(").replace("  it(", "  test(")
QUNIT_TEST = ("var assert = require('assert');\nvar lib = require('..');\n\nsuite('lib');\n\ntest('adds', function () {\n"
              "  assert.equal(lib.add(1, 2), 3)\n});\n\ntest('adds more', function () {\n  assert.equal(lib.add(2, 2), 4)\n});\n")
LIB = "exports.add = function (a, b) { return a + b }\n"


def _decoy(files: dict[str, str], cmd: str, f2p: tuple[str, ...] = ("lib adds",), seed: int = 0) -> Any:
    import random

    from sandbox.repo.decoys import mocha_decoy

    def listdir(folder: str) -> list[str]:
        prefix = f"{folder}/" if folder else ""
        return sorted({p[len(prefix):].split("/")[0] for p in files if p.startswith(prefix)})

    data = {p: t.encode() for p, t in files.items()}
    return mocha_decoy(cmd, ["test/lib.js"], f2p, data.get, listdir, random.Random(seed))


@pytest.mark.parametrize("cmd, ui, specs, recursive", [
    (COOKIE["test_cmd"], "qunit", ("test",), False), ("mocha", "bdd", ("test",), False),
    ("npx mocha --ui=tdd --recursive ./spec/ --reporter json", "tdd", ("spec",), True),
    ("./node_modules/.bin/mocha -u bdd -R json test lib/test", "bdd", ("test", "lib/test"), False)])
def test_a_mocha_command_is_read_for_its_interface_and_specs(cmd: str, ui: str, specs: tuple[str, ...], recursive: bool) -> None:
    from sandbox.repo.decoys import MochaCommand, mocha_command

    read = mocha_command(cmd)
    assert isinstance(read, MochaCommand) and (read.ui, read.specs, read.recursive) == (ui, specs, recursive), read


@pytest.mark.parametrize("cmd, why", [
    ("mocha --grep adds test/", "may select tests"), ("mocha -g adds test/", "may select tests"), ("mocha --bail test/", "may select"),
    ("mocha -b test/", "may select"), ("mocha --ignore test/x.js test/", "may select"), ("mocha --extension ts test/", "may select"),
    ("mocha --config x.yml test/", "may select"), ("mocha --ui exports test/", "interface 'exports'"),
    ("mocha 'test/**/*.js'", "a glob"), ("mocha ../test", "outside"), ("npm test", "does not run mocha"),
    ("mocha test/ && true", "shell operator"), ("mocha test/; true", "shell operator"), ("mocha $(ls test)", "shell operator"),
    ("mocha --ui", "has no value")])
def test_a_mocha_command_a_decoy_may_not_load_under_is_refused(cmd: str, why: str) -> None:
    from sandbox.repo.decoys import mocha_command

    read = mocha_command(cmd)
    assert isinstance(read, str) and why in read, read


@pytest.mark.parametrize("ui, text", [("bdd", BDD_TEST), ("tdd", TDD_TEST), ("qunit", QUNIT_TEST)])
def test_a_mocha_decoy_copies_a_fail_to_pass_test_and_fails_at_its_end(ui: str, text: str) -> None:
    files = {"index.js": LIB, "package.json": "{}", "test/lib.js": text, "test/other.js": text.replace("'lib'", "'other'")}
    decoy = _decoy(files, f"mocha --ui {ui} test/")
    assert not isinstance(decoy, str), decoy
    body = decoy.text.decode()
    assert decoy.path.startswith("test/") and decoy.path.endswith(".js") and decoy.path not in files
    assert decoy.path.split("/")[1] > "other.js"  # loaded last in its folder (qunit's suite() holds for later files)
    assert decoy.test_id.startswith("lib adds ") and decoy.test_id not in ("lib adds more",), decoy.test_id
    assert "var lib = require('..');" in body and "assert.equal(lib.add(1, 2), 3)" in body  # the prelude, the body
    assert body.rstrip().endswith(("throw new Error('expected a different result')\n});",
                                   "throw new Error('expected a different result')\n  });\n});"))
    group = {"bdd": "describe('lib', function () {", "tdd": "suite('lib', function () {", "qunit": "suite('lib');"}[ui]
    assert group in body and decoy.test_id[len("lib "):] in body


def test_a_mocha_decoy_s_name_and_title_are_drawn_at_random() -> None:
    files = {"index.js": LIB, "package.json": "{}", "test/lib.js": BDD_TEST,
             "test/more.js": BDD_TEST.replace("adds more", "subtracts numbers quickly")}
    made = [_decoy(files, "mocha test/", seed=seed) for seed in range(12)]
    assert len({d.path for d in made}) > 2 and len({d.test_id for d in made}) > 1, made


@pytest.mark.parametrize("change", ["return", "this", "template", "prelude"])
def test_a_body_that_cannot_be_copied_safely_gets_statements_of_its_own(change: str) -> None:
    text = {"return": BDD_TEST.replace("    assert.equal(lib.add(1, 2), 3)\n", "    return lib.add(1, 2)\n"),
            "this": BDD_TEST.replace("    assert.equal(lib.add(1, 2), 3)\n", "    this.skip()\n"),
            "template": BDD_TEST.replace("    assert.equal(lib.add(1, 2), 3)\n", "    assert.equal(`${lib.add(1, 2)}`, '3')\n"),
            "prelude": BDD_TEST.replace("var lib = require('..');", "var lib = require('..'); lib.add = null")}[change]
    decoy = _decoy({"index.js": LIB, "package.json": "{}", "test/lib.js": text}, "mocha test/")
    assert not isinstance(decoy, str), decoy
    body = decoy.text.decode()
    assert "lib.add" not in body and "seen.push" in body and "throw new Error('expected a different result')" in body


@pytest.mark.parametrize("files, cmd, why", [
    ({".mocharc.yml": "ui: tdd\n"}, "mocha test/", ".mocharc.yml"),
    ({"package.json": '{"mocha": {"grep": "adds"}}'}, "mocha test/", "configures mocha"),
    ({}, "mocha test/lib.js", "no file the test patch touches is in a directory"),
    ({}, "mocha spec/", "no file the test patch touches is in a directory"),
    ({}, "mocha --ui qunit test/ spec/", "last, as mocha's qunit interface needs"),
    ({}, "mocha --ui qunit --sort spec/ test/", "last, as mocha's qunit interface needs"),
    ({}, "mocha --grep adds test/", "may select tests")])
def test_a_mocha_decoy_that_may_not_load_is_refused_with_its_reason(files: dict[str, str], cmd: str, why: str) -> None:
    made = _decoy({"index.js": LIB, "package.json": "{}", "test/lib.js": BDD_TEST, **files}, cmd)
    assert isinstance(made, str) and why in made, made


def test_a_javascript_task_no_decoy_can_be_planted_in_is_the_task_s_error(tmp_path: Path) -> None:
    """mocha has no protection from a forged report but the decoy: a task it cannot be planted in is never graded."""
    import json

    from sandbox import SandboxConfig
    from sandbox.contract import parse_task
    from sandbox.repo_job import make_repo_plan

    repo = tmp_path / "js" / "repo"
    (repo / "test").mkdir(parents=True)
    (repo / "index.js").write_text(LIB)
    (repo / "package.json").write_text("{}")
    (repo / "test" / "lib.js").write_text(BDD_TEST)
    (tmp_path / "js" / "environment.json").write_text(json.dumps({"language": "javascript"}))
    config = SandboxConfig(repo_environments=str(tmp_path))
    touch = "--- a/test/lib.js\n+++ b/test/lib.js\n@@ -1,2 +1,2 @@\n-'use strict'\n+'use strict';\n var assert = require('assert');\n"
    for cmd, planted in (("mocha --grep adds test/", False), ("mocha --reporter json test/", True)):
        plan = make_repo_plan(parse_task({"id": "t", "kind": "repo", "environment": "js", "completion": add("a.js"),
                                          "test_patch": touch, "test_cmd": cmd, "fail_to_pass": ["lib adds"],
                                          "report": "mocha-json"}), config)
        if planted:
            assert not isinstance(plan, dict) and len(plan.decoys) == 1 and plan.decoys[0].startswith("lib adds "), plan
        else:
            assert isinstance(plan, dict) and plan["verdict"] == "error" and "no mocha decoy" in plan["detail"], plan
            assert "may select tests" in plan["detail"], plan


@pytest.mark.docker
@pytest.mark.parametrize("ui, text", [("bdd", BDD_TEST), ("tdd", TDD_TEST), ("qunit", QUNIT_TEST)])
def test_a_mocha_decoy_fails_under_mocha_and_leaves_every_other_test_as_it_was(graded: tuple[Any, Path], tmp_path: Path,
                                                                             ui: str, text: str) -> None:
    """Each interface's decoy, run by the javascript image's mocha: reported FAILED under its id, and every
    other test (two files, the decoy's loaded last) PASSED under its own full title."""
    import subprocess

    from sandbox.build import image_tag
    from sandbox.repo.results import parse_mocha_json

    files = {"index.js": LIB, "package.json": "{}", "test/lib.js": text, "test/other.js": text.replace("'lib'", "'other'")}
    decoy = _decoy(files, f"mocha --ui {ui} test/")
    assert not isinstance(decoy, str), decoy
    for path, body in {**files, decoy.path: decoy.text.decode()}.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(body)
    tmp_path.chmod(0o777)
    run = subprocess.run(["docker", "run", "--rm", "--network", "none", "-v", f"{tmp_path}:/p", "-w", "/p", "--entrypoint", "sh",
                          image_tag("javascript"), "-c", f"mocha --check-leaks --ui {ui} --reporter json "
                          "--reporter-option output=/p/report.json test/"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, (run.stdout, run.stderr)  # one failure: the decoy's
    statuses = parse_mocha_json((tmp_path / "report.json").read_bytes())
    assert statuses == {decoy.test_id: "FAILED", "lib adds": "PASSED", "lib adds more": "PASSED", "other adds": "PASSED",
                        "other adds more": "PASSED"}, statuses
