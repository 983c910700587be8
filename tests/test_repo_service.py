"""Repository tasks through the service (docs/repo-tasks.md "Running a task"): a real server on
loopback, its gRPC and HTTP ports, real Docker sandboxes, environments built from the corpus's
bundles (tests/data/repo_tasks) by `verifier env build`, and one with a dependency its build installs. One server for the module, one call per port: the gold patch is
resolved; an empty patch, a plausible wrong patch, a patch to a protected test file, and a patch
that does not apply are not (the last two are refused before anything runs, as the model's
`wrong_answer`, never `infra_error`); rewrites of the gold (bare, an offset hunk header) resolve;
bad fields are INVALID_ARGUMENT naming the field on both ports. Each on the Docker, the gVisor and the userns backend."""
from __future__ import annotations

import json
import subprocess
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest

from conftest import ServerProcess
from helpers import http_call, sandbox_config, stub, userns_flags
from repo_corpus import ROWS, recipe, task
from verifier.client import VerifierClient
from verifier.tools.cli import main as verifier_cli
from verifier.v1 import verifier_pb2 as pb

PY = ROWS["pytoolz__toolz-5d95878603e7"]  # 1 FAIL_TO_PASS, 34 PASS_TO_PASS: about a second a run
# 2 FAIL_TO_PASS, 27 PASS_TO_PASS; its go.mod has no go directive, which the go command rewrites under -mod=mod
# (a link into the read-only environment failed every go-version task: docs/repo-tasks.md "Warm environments")
GO = ROWS["hashicorp__go-version-82485a6d3d05"]
HUMANIZE = ROWS["dustin__go-humanize-463a09566eca"]  # 1 FAIL_TO_PASS, 25 PASS_TO_PASS
pytestmark = pytest.mark.docker  # every test here starts its module's servers (Docker, gVisor's root filesystems)
# Apply and change no code: a new module in the package (a new file must be source on the allowlist,
# docs/repo-tasks.md "Trust model").
NOOP = "--- /dev/null\n+++ b/toolz/notes.py\n@@ -0,0 +1 @@\n+# no change\n"
NOOP_GO = "--- /dev/null\n+++ b/notes.go\n@@ -0,0 +1 @@\n+package version\n"


# A project with a dependency the language image lacks (docs/repo-tasks.md "Building environments"): its wheel
# unpacked under vendor/ by the recipe's install step, in the python image, the network off.
CALC_FILES = {"calc/__init__.py": "from tinydep import double\n\n\ndef quad(x):\n    return double(x)\n",
              "tests/test_calc.py": "from calc import quad\nfrom tinydep import double\n\n\ndef test_quad():\n"
                                    "    assert quad(2) == 8\n\n\ndef test_double():\n    assert double(3) == 6\n"}
CALC_CMD = "PYTHONPATH=vendor/site-packages python3 -m pytest -p no:cacheprovider -rA tests/test_calc.py"
CALC_FIX = ("--- a/calc/__init__.py\n+++ b/calc/__init__.py\n@@ -3,2 +3,2 @@\n def quad(x):\n"
            "-    return double(x)\n+    return double(double(x))\n")
# Passes both tests, by changing the dependency rather than the project: refused (vendor/ is not the patch's).
CALC_VENDOR = ("--- a/vendor/site-packages/tinydep/__init__.py\n+++ b/vendor/site-packages/tinydep/__init__.py\n"
               "@@ -1,2 +1,2 @@\n def double(x):\n-    return 2 * x\n+    return 8 if x == 2 else 2 * x\n")


def calc_environments(factory: pytest.TempPathFactory, *more: Callable[[Path], str]) -> Path:
    """A folder of built environments (`verifier env build`): calc's, and each recipe `more(recipes)` writes."""
    recipes, root = factory.mktemp("recipes"), factory.mktemp("environments")
    assert verifier_cli(["env", "build", calc_recipe(recipes), *(m(recipes) for m in more), "--environments", str(root)]) == 0
    return root


def calc_recipe(folder: Path) -> str:
    src, wheels = folder / "calc-src", folder / "wheels"
    for name, text in CALC_FILES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    wheels.mkdir()
    with zipfile.ZipFile(wheels / "tinydep-1.0-py3-none-any.whl", "w") as z:
        z.writestr("tinydep/__init__.py", "def double(x):\n    return 2 * x\n")
        z.writestr("tinydep-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: tinydep\nVersion: 1.0\n")
    git = ["git", "-C", str(src), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(src)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "calc"], check=True)
    (folder / "calc.json").write_text(json.dumps({
        "name": "calc", "language": "python", "repo": "calc-src", "commit": "HEAD", "wheels": "wheels",
        "install": ["python3 -m zipfile -e /wheels/tinydep-1.0-py3-none-any.whl vendor/site-packages"],
        "test_cmd": CALC_CMD}))
    return str(folder / "calc.json")


# A SWE-bench row of a project whose gold run skips a PASS_TO_PASS test (docs/repo-tasks.md "SWE-bench rows"):
# `env build --format swebench` finds the repository as OWNER/NAME, takes the install steps and the test command
# from a specs file by repository and version, and records the skip as the test's expected status.
SKIP_TEST = "\n\n@pytest.mark.skip(reason='later')\ndef test_later():\n    assert quad(1) == 4\n"
SKIP_ROW = {"instance_id": "acme__calc-1", "repo": "acme/calc", "version": "1.0", "patch": CALC_FIX, "test_patch": "",
            "FAIL_TO_PASS": '["tests/test_calc.py::test_quad"]',
            "PASS_TO_PASS": '["tests/test_calc.py::test_double", "tests/test_calc.py::test_later"]'}


def skip_rows(folder: Path) -> tuple[str, str, str]:
    """(rows file, repos folder, specs file) of SKIP_ROW; the wheels are calc_recipe's (made first)."""
    src = folder / "repos" / "acme" / "calc"
    for name, text in CALC_FILES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(f"import pytest\n{text}{SKIP_TEST}" if name.startswith("tests/") else text)
    git = ["git", "-C", str(src), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(src)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "calc"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    (folder / "rows.jsonl").write_text(json.dumps({**SKIP_ROW, "base_commit": commit}) + "\n")
    (folder / "specs.json").write_text(json.dumps({"acme/calc": {"*": {
        "wheels": "wheels", "test_cmd": CALC_CMD,
        "install": ["python3 -m zipfile -e /wheels/tinydep-1.0-py3-none-any.whl vendor/site-packages"]}}}))
    return str(folder / "rows.jsonl"), str(folder / "repos"), str(folder / "specs.json")


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built by `verifier env build` from recipes, as an operator builds them: the two corpus tasks', the
    dependency's and the skipping row's (scripts/validate_repo_tasks.py grades the whole corpus on both backends)."""
    recipes = tmp_path_factory.mktemp("recipes")
    root = tmp_path_factory.mktemp("environments")
    paths = [recipe(PY, recipes), recipe(GO, recipes), calc_recipe(recipes)]
    assert verifier_cli(["env", "build", *paths, "--environments", str(root)]) == 0
    rows, repos, specs = skip_rows(recipes)  # its gold run on Docker: once for both backends' servers
    assert verifier_cli(["env", "build", "--format", "swebench", rows, "--repos", repos, "--specs", specs,
                         "--environments", str(root)]) == 0
    return root


@pytest.fixture(scope="module", params=["docker", "gvisor", "userns"])
def server(request: pytest.FixtureRequest, environments: Path) -> Iterator[ServerProcess]:
    """One server per backend (the Docker daemon's containers; gVisor's rootless sandboxes; userns's bubblewrap
    sandboxes, in the mode the run forces or the server picks: tests/helpers.py userns_flags)."""
    sandbox_config(request.param, languages=("python", "go"))  # the root filesystems: instant when they exist
    flags = userns_flags() if request.param == "userns" else ()
    with ServerProcess("--workers", "1", "--sandbox-backend", request.param, "--sandbox-languages", "python,go",
                       "--sandbox-pool-size", "1", "--sandbox-repo-environments", str(environments), *flags) as s:
        s.backend = request.param  # type: ignore[attr-defined]
        yield s


def test_python_tasks_through_grpc(server: ServerProcess) -> None:
    gold = PY["patch"]
    wrong = gold.replace("instanceproperty(attrgetter('first'))", "property(attrgetter('first'))")
    stale = gold.replace("        def __get__(self, obj, objtype=None):", "        def __get__(self, obj, objtype):")
    broken = gold.replace("+    __wrapped__ = instanceproperty(attrgetter('first'))", "+    __wrapped__ = instanceproperty(attrgetter('first')")
    assert wrong != gold and stale != gold and broken != gold
    tasks = [
        task(PY, "gold", f"The fix:\n\n```diff\n{gold}```\n"),
        task(PY, "gold-offset", gold.replace("@@ -533,6 +533,8 @@", "@@ -540,6 +540,8 @@")),  # bare, header off by 7
        task(PY, "empty", NOOP),
        task(PY, "wrong", wrong),
        task(PY, "broken", broken),  # does not import: every test errors, the run is still graded
        task(PY, "tests-too", gold + PY["test_patch"]),
        task(PY, "stale", stale),
        task(PY, "prose", "I would change Compose to expose __wrapped__."),
        task(PY, "unbuilt", gold, environment="no-such-environment"),
    ]
    with VerifierClient(server.target) as client:
        results = {r["id"]: r for r in client.grade(tasks)}
    verdicts = {k: r["verdict"] for k, r in results.items()}
    assert verdicts == {"gold": "accepted", "gold-offset": "accepted", "empty": "wrong_answer", "wrong": "wrong_answer", "broken": "wrong_answer",
                        "tests-too": "wrong_answer", "stale": "wrong_answer", "prose": "no_code",
                        "unbuilt": "infra_error"}, {k: r["detail"] for k, r in results.items()}
    assert results["gold"]["score"] == 1.0 and results["wrong"]["score"] == 0.0
    f2p = PY["FAIL_TO_PASS"][0]
    statuses = {t["name"]: (t["verdict"], t["detail"]) for t in results["empty"]["tests"]}
    assert len(statuses) == 1 + len(PY["PASS_TO_PASS"])
    assert statuses[f2p] == ("wrong_answer", "FAIL_TO_PASS: FAILED")
    assert all(statuses[p] == ("accepted", "PASS_TO_PASS: PASSED") for p in PY["PASS_TO_PASS"])
    assert [t["verdict"] for t in results["gold"]["tests"]] == ["accepted"] * len(statuses)
    assert "FAIL_TO_PASS failing" in results["wrong"]["detail"]
    assert "PASS_TO_PASS failing" in results["broken"]["detail"]
    assert "protected path" in results["tests-too"]["detail"] and not results["tests-too"]["tests"]
    assert "does not apply" in results["stale"]["detail"] and not results["stale"]["retryable"]
    assert "not built" in results["unbuilt"]["detail"]


def test_swebench_rows_through_verifier_grade(server: ServerProcess, tmp_path: Path) -> None:
    """Rows as SWE-bench stores them (FAIL_TO_PASS as JSON text, the model's output in `model_patch` or
    `completion`; docs/repo-tasks.md "SWE-bench rows") through `verifier grade --format swebench` and
    `verifier report`: the gold resolves, an empty and a perturbed patch do not, a bad row is one error
    line and the others are graded."""
    wrong = PY["patch"].replace("instanceproperty(attrgetter('first'))", "property(attrgetter('first'))")
    assert wrong != PY["patch"]
    row = {k: PY[k] for k in ("instance_id", "repo", "base_commit", "patch", "test_patch", "version", "test_cmd")}
    row.update(FAIL_TO_PASS=json.dumps(PY["FAIL_TO_PASS"]), PASS_TO_PASS=json.dumps(PY["PASS_TO_PASS"]))
    rows = [{**row, "model_patch": PY["patch"]}, {**row, "completion": f"```diff\n{PY['patch']}```"},
            {**row, "model_patch": NOOP}, {**row, "model_patch": wrong}, {**row, "model_patch": "", "FAIL_TO_PASS": "['x']"}]
    verdicts = ["accepted", "accepted", "wrong_answer", "wrong_answer"]
    if server.backend == "gvisor":  # type: ignore[attr-defined]  # reading rows is not the backend's: two runs there
        rows, verdicts = rows[::2], verdicts[::2]
    src, out, html = tmp_path / "rows.jsonl", tmp_path / "graded.jsonl", tmp_path / "report.html"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert verifier_cli(["grade", str(src), "--format", "swebench", "--server", server.target, "-o", str(out)]) == 1
    graded = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["verdict"] for g in graded] == verdicts, [g["detail"] for g in graded]
    assert [g["score"] for g in graded] == [float(v == "accepted") for v in verdicts]
    assert graded[0]["instance_id"] == PY["instance_id"] and graded[0]["model_patch"] == PY["patch"]
    empty = next(g for g in graded if g.get("model_patch") == NOOP)
    assert empty["verifier_tests"][0] == {**empty["verifier_tests"][0], "name": PY["FAIL_TO_PASS"][0],
                                          "detail": "FAIL_TO_PASS: FAILED"}
    assert verifier_cli(["report", str(out), "-o", str(html)]) == 0 and PY["instance_id"] in html.read_text()


def test_a_gold_run_that_skips_a_test_is_recorded_and_graded_strictly(server: ServerProcess, environments: Path,
                                                                       tmp_path: Path) -> None:
    """`env build --format swebench` stored the gold run's SKIPPED; with it the gold resolves, and an empty
    patch and a patch whose fix skips the FAIL_TO_PASS test do not."""
    meta = json.loads((environments / "acme__calc-1" / "environment.json").read_text())
    assert meta["expected"] == {"tests/test_calc.py::test_later": "SKIPPED"} and meta["test_cmd"] == CALC_CMD
    skipping = CALC_FIX.replace("+    return double(double(x))", "+    import pytest; pytest.skip('no')")
    assert skipping != CALC_FIX
    rows = [{**SKIP_ROW, "test_cmd": CALC_CMD, "model_patch": p}
            for p in (CALC_FIX, "--- /dev/null\n+++ b/calc/notes.py\n@@ -0,0 +1 @@\n+# no\n", skipping)]
    src, out = tmp_path / "rows.jsonl", tmp_path / "graded.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert verifier_cli(["grade", str(src), "--format", "swebench", "--server", server.target, "-o", str(out)]) == 0
    graded = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["verdict"] for g in graded] == ["accepted", "wrong_answer", "wrong_answer"], [g["detail"] for g in graded]
    assert "test_quad (SKIPPED)" in graded[2]["detail"]


def test_a_task_whose_dependency_the_build_installed(server: ServerProcess) -> None:
    """The environment's dependency, installed at build time, is there at run time on both backends; a patch
    that would pass by changing it is refused."""
    def calc(task_id: str, completion: str) -> dict:
        return {"id": task_id, "kind": "repo", "environment": "calc", "completion": completion, "test_cmd": CALC_CMD,
                "fail_to_pass": ["tests/test_calc.py::test_quad"], "pass_to_pass": ["tests/test_calc.py::test_double"]}
    with VerifierClient(server.target) as client:
        results = {r["id"]: r for r in client.grade([calc("gold", CALC_FIX), calc("vendor", CALC_VENDOR),
                                                      calc("empty", "--- /dev/null\n+++ b/calc/notes.py\n@@ -0,0 +1 @@\n+# no\n")])}
    assert results["gold"]["verdict"] == "accepted", results["gold"]["detail"]
    assert results["empty"]["verdict"] == "wrong_answer", results["empty"]["detail"]
    assert [t["detail"] for t in results["empty"]["tests"]] == ["FAIL_TO_PASS: FAILED", "PASS_TO_PASS: PASSED"]
    assert results["vendor"]["verdict"] == "wrong_answer" and "resolves specially" in results["vendor"]["detail"]


def test_a_go_task_through_http(server: ServerProcess) -> None:
    """The gold resolves and an empty patch does not; under gVisor the gold alone (each run compiles
    the package and its tests, about 10 s there: the empty patch's verdict is the Python test's)."""
    tasks = [task(GO, "gold", GO["patch"])] + ([task(GO, "empty", NOOP_GO)] if server.backend != "gvisor" else [])  # type: ignore[attr-defined]
    status, _, answer = http_call(server, "POST", "/v1/grade", {"tasks": tasks})
    assert status == 200, answer
    results = {r["id"]: r for r in answer["results"]}
    assert results["gold"]["verdict"] == "accepted", results["gold"]["detail"]
    assert [t["detail"] for t in results["gold"]["tests"]].count("PASS_TO_PASS: PASSED") == len(GO["PASS_TO_PASS"])
    if "empty" not in results:
        return
    assert results["empty"]["verdict"] == "wrong_answer", results["empty"]["detail"]
    tests = {t["name"]: t["detail"] for t in results["empty"]["tests"]}
    assert tests["TestJsonMarshal"] == "FAIL_TO_PASS: FAILED" and tests["TestCollection"] == "PASS_TO_PASS: PASSED"


BAD = [
    ({"environment": "../x"}, "environment"),
    ({"fail_to_pass": []}, "fail_to_pass"),
    ({"fail_to_pass": ["TestJsonMarshal", "TestJsonMarshal"]}, "fail_to_pass[1]"),
    ({"pass_to_pass": [f"T{i}" for i in range(10_001)]}, "pass_to_pass"),
    ({"report": "xml"}, "report"),
    ({"test_cmd": "go test " + "x" * 5000}, "test_cmd"),
    ({"test_patch": "x" * (5 << 20)}, "test_patch"),
    ({"completion": "x" * (5 << 20)}, "completion"),
    ({"time_limit_s": 601.0}, "time_limit_s"),
]


def _proto(t: dict) -> pb.Task:
    """The task as sent by a client that checks nothing: the server's own validation answers."""
    fields = {k: v for k, v in t.items() if k not in ("id", "kind")}
    return pb.Task(id=t["id"], repo=pb.RepoTask(**fields))


@pytest.mark.parametrize("change, field", BAD)
def test_a_bad_field_is_invalid_argument_naming_it_on_both_ports(server: ServerProcess, change: dict, field: str) -> None:
    bad = {**task(GO, "bad", GO["patch"]), **change}
    status, _, answer = http_call(server, "POST", "/v1/grade", {"tasks": [bad]})
    assert status == 400 and answer["field"] == f"tasks[0].{field}", answer
    with pytest.raises(grpc.RpcError) as e:
        stub(server.target).Grade(pb.GradeRequest(tasks=[_proto(bad)]), timeout=30)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and f"tasks[0].repo.{field}" in str(e.value.details())


def test_an_unknown_key_of_a_repo_task_is_named_on_http(server: ServerProcess) -> None:
    status, _, answer = http_call(server, "POST", "/v1/grade", {"tasks": [{**task(GO, "x", ""), "gold": "y"}]})
    assert status == 400 and answer["field"] == "tasks[0].gold", answer
