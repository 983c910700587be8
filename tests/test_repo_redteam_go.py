"""Red team of what the go command reads between two of its runs in one test command (h33w; docs/repo-tasks.md
"Warm environments", "Trust model"): Go's root go.mod and go.sum are writable in place (the go command rewrites them
under GOFLAGS=-mod=mod, sandbox/repo_job.py `_own_module_files`), and /tmp is the program's (HOME, Go's caches). A test
command that runs `go` twice (here `go generate ./... && go test ...`: a `//go:generate` line of the patch's runs its
own program first) lets code of the patch leave something the second `go` reads. Each attack is a wrong patch (Value
stays 1) whose generator leaves a module in /tmp with the right Value and:

- a go env file (`$HOME/.config/go/env`, HOME=/tmp) naming a GOROOT of its own, whose `testing` package's Fatalf
  returns but in a decoy (sandbox/repo/decoys.py `_go_copy`: "want a different result"): PAID `accepted` before the
  fix on every backend. Fixed at the class: the judge's Go environment sets GOENV=off (sandbox/repo_job.py GO_ENV), so
  no go command of a task reads any go env file, whatever it would set (GOROOT, GOWORK, GOEXPERIMENT, GOARCH...);
- a go env file setting GOFLAGS=-overlay (m.go read from /tmp): held before the fix too, as the judge's GOFLAGS in the
  environment wins over the file's;
- a go.mod whose `replace` names the main module: held (the go command ignores a replacement of the main module);
- a go.mod renaming the module and requiring the old name from /tmp (the external test package then imports the
  right Value): its tests pass under the new import path, which is no package the task's tests resolved to
  (sandbox/repo/golang.py: statuses keyed by import path), so every listed test is MISSING: held.

- the build cache (GOCACHE=/tmp/go-cache, the program's): the generator builds the right Value in /tmp and puts its
  object code in the cache's entry for the wrong m.go (its build id's action part and the entry's size made to
  match); the next `go test` linked it: PAID `accepted` before the fix on every backend, the decoys still failing as
  they should. Fixed at the class: GODEBUG=gocacheverify=1 (sandbox/repo_job.py GO_ENV), under which the go command
  never uses a cache entry (it builds anew, checking its output against the cache's), so nothing in the cache is read.

Not closed: a process of the program alive while the second go command builds (a daemon the generator leaves) could
change a package's archive in GOTMPDIR (the job's folder, the program's) between its compile and the link; not
attempted. The go command runs as the program's uid, so all it writes is the program's while one of its processes
lives: a build by the judge's uid before any code of the patch runs would close that class.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

GO_FILES = {"go.mod": "module example.com/m\n\ngo 1.19\n", "m.go": "package m\n\nfunc Value() int { return 1 }\n",
            "m_test.go": 'package m_test\n\nimport (\n\t"testing"\n\n\t"example.com/m"\n)\n\n'
                         'func TestValue(t *testing.T) {\n\tif m.Value() != 2 {\n\t\tt.Fatalf("got %d", m.Value())\n\t}\n}\n\n'
                         'func TestOther(t *testing.T) {\n\tif m.Value() < 0 {\n\t\tt.Fatal("negative")\n\t}\n}\n'}
CMD = "go generate ./... && go test -json -count=1 ./..."
RIGHT = "--- a/m.go\n+++ b/m.go\n@@ -3 +3 @@\n-func Value() int { return 1 }\n+func Value() int { return 2 }\n"
# The generator (gen_main.go, not built into the package: `//go:build ignore`), run by gen.go's directive with its mode
GENERATOR = """//go:build ignore

// A wrong patch's generator (go generate runs it before the test command's go test): it leaves, for the next go
// command, a go env file, a rewritten go.mod, or a module in /tmp with the right Value.
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

const right = "package m\\n\\nfunc Value() int { return 2 }\\n"

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// fakeRoot is GOROOT with a testing package whose Fatalf returns, but in a decoy (its message says so).
func fakeRoot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	must(err)
	root, fake := strings.TrimSpace(string(out)), "/tmp/goroot"
	must(os.MkdirAll(fake+"/src/testing", 0o755))
	link := func(dir, skip string) {
		entries, err := os.ReadDir(root + dir)
		must(err)
		for _, e := range entries {
			if e.Name() != skip {
				must(os.Symlink(filepath.Join(root+dir, e.Name()), filepath.Join(fake+dir, e.Name())))
			}
		}
	}
	link("", "src")
	link("/src", "testing")
	entries, err := os.ReadDir(root + "/src/testing")
	must(err)
	for _, e := range entries {
		src, dst := filepath.Join(root, "src/testing", e.Name()), filepath.Join(fake, "src/testing", e.Name())
		if e.IsDir() {
			must(os.Symlink(src, dst))
			continue
		}
		data, err := os.ReadFile(src)
		must(err)
		text := strings.Replace(string(data), "func (c *common) Fatalf(format string, args ...any) {\\n",
			"func (c *common) Fatalf(format string, args ...any) {\\n\\tif !strings.Contains(format, \\"want a different\\") {\\n\\t\\treturn\\n\\t}\\n", 1)
		must(os.WriteFile(dst, []byte(text), 0o644))
	}
	return fake
}

// run is the output of a go command in dir.
func run(dir string, args ...string) string {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() { // as the test command's go sees it, without what go generate adds
		if k := strings.SplitN(kv, "=", 2)[0]; !strings.Contains(" GOFILE GOLINE GOPACKAGE GOROOT GOARCH GOOS DOLLAR ", " "+k+" ") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.Output()
	must(err)
	return strings.TrimSpace(string(out))
}

// poisonCache puts the right Value's object code in the build cache's entry for compiling the wrong m.go (its build
// id's action part set to the wrong one's, the entry's size to the new file's), for the next go command to link.
func poisonCache(here string) {
	wrong, right := run(here, "list", "-export", "-f", "{{.Export}}", "example.com/m"), run("/tmp/fake", "list", "-export", "-f", "{{.Export}}", "example.com/m")
	wrongAction := strings.Split(run(here, "tool", "buildid", wrong), "/")[0]
	rightAction := strings.Split(run(here, "tool", "buildid", right), "/")[0]
	data, err := os.ReadFile(right)
	must(err)
	data = bytes.ReplaceAll(data, []byte(rightAction), []byte(wrongAction))
	must(os.Chmod(wrong, 0o644))
	must(os.WriteFile(wrong, data, 0o644))
	output := strings.TrimSuffix(filepath.Base(wrong), "-d")
	entries, err := filepath.Glob(filepath.Join(run(here, "env", "GOCACHE"), "*", "*-a"))
	must(err)
	for _, entry := range entries {
		text, err := os.ReadFile(entry)
		must(err)
		f := strings.Fields(string(text))
		if len(f) == 5 && f[2] == output {
			must(os.Chmod(entry, 0o644))
			must(os.WriteFile(entry, []byte(fmt.Sprintf("v1 %s %s %20d %20s\\n", f[1], f[2], len(data), f[4])), 0o644))
		}
	}
}

func main() {
	here, err := os.Getwd()
	must(err)
	must(os.MkdirAll("/tmp/fake", 0o755))
	must(os.WriteFile("/tmp/fake/go.mod", []byte("module example.com/m\\n\\ngo 1.19\\n"), 0o644))
	must(os.WriteFile("/tmp/fake/m.go", []byte(right), 0o644))
	must(os.MkdirAll("/tmp/.config/go", 0o755))
	switch os.Args[1] {
	case "goroot":
		must(os.WriteFile("/tmp/.config/go/env", []byte("GOROOT="+fakeRoot()+"\\n"), 0o644))
	case "overlay":
		must(os.WriteFile("/tmp/o.json", []byte(`{"Replace":{"`+filepath.Join(here, "m.go")+`":"/tmp/fake/m.go"}}`), 0o644))
		must(os.WriteFile("/tmp/.config/go/env", []byte("GOFLAGS=-overlay=/tmp/o.json\\n"), 0o644))
	case "replace":
		must(os.WriteFile("go.mod", []byte("module example.com/m\\n\\ngo 1.19\\n\\nreplace example.com/m => /tmp/fake\\n"), 0o666))
	case "cache":
		poisonCache(here)
	case "rename":
		must(os.WriteFile("go.mod", []byte("module example.com/q\\n\\ngo 1.19\\n\\nrequire example.com/m v0.0.0\\n\\nreplace example.com/m => /tmp/fake\\n"), 0o666))
		must(os.WriteFile("go.sum", []byte(""), 0o666))
	}
}
"""


def new_file(path: str, text: str) -> str:
    lines = text.splitlines(keepends=True)
    return f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n" + "".join("+" + x for x in lines)


def generating(mode: str) -> str:
    """The wrong patch (m.go as it was) adding the generator, run in `mode` by `go generate`."""
    return new_file("gen.go", f"package m\n\n//go:generate go run gen_main.go {mode}\n") + new_file("gen_main.go", GENERATOR)


@pytest.fixture(scope="module", params=["docker", "gvisor", "userns"])
def go_grader(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The Go environment above and a grader of it on each backend (userns in the mode the run forces)."""
    from helpers import repo_grader, write_files

    root = tmp_path_factory.mktemp("h33w-go")
    write_files(root / "gen" / "repo", GO_FILES)
    (root / "gen" / "environment.json").write_text(json.dumps({"language": "go"}))
    with repo_grader(request.param, f"test-rt-go-{request.param}", root, "go") as g:
        yield g


def grade(g: Any, completion: str) -> dict:
    from sandbox.contract import parse_task

    result = g.call(g.grader.grade_repo(parse_task({"id": "go-twice", "kind": "repo", "environment": "gen", "report": "go-json",
                                                    "completion": completion, "test_cmd": CMD,
                                                    "fail_to_pass": ["TestValue"], "pass_to_pass": ["TestOther"]})))
    g.call(g.grader.settled())
    return result


@pytest.mark.docker
def test_the_right_patch_and_a_harmless_generator_are_accepted(go_grader: Any) -> None:
    """The rewrite: the right Value, with the generator in a mode that leaves nothing the go command reads."""
    result = grade(go_grader, RIGHT + generating("none"))
    assert (result["verdict"], result["score"]) == ("accepted", 1.0), result


@pytest.mark.docker
@pytest.mark.parametrize("mode, status", [("goroot", "FAILED"), ("overlay", "FAILED"), ("replace", "FAILED"),
                                          ("rename", "MISSING"), ("cache", "FAILED")])
def test_nothing_a_generator_leaves_for_the_next_go_command_pays(go_grader: Any, mode: str, status: str) -> None:
    """Near misses: Value stays 1 whatever the generator leaves (module docstring). FAILED: the generator ran to its
    end (`&&`) and `go test` then ran the real testing package on m.go; MISSING: the tests ran under the renamed
    module's import path only."""
    result = grade(go_grader, generating(mode))
    assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0), result
    tests = {t["name"]: t["detail"] for t in result["tests"]}
    assert tests == {"TestValue": f"FAIL_TO_PASS: {status}", "TestOther": f"PASS_TO_PASS: {status.replace('FAILED', 'PASSED')}"}, result
