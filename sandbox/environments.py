"""`verifier env build RECIPE...`: repository environments built offline, cached by content hash
(docs/repo-tasks.md "Building environments").

A recipe (JSON) names the environment, its language (the sandbox image and pool it runs in), the
repository (a local git directory, bare or not, or a git bundle) at a commit, the install steps of
its dependencies, the test command and its report format. The build checks the commit out into
`ROOT/.builds/<key>` (ROOT is the server's `--sandbox-repo-environments`), runs the install steps in
a container of the language's sandbox image with the network off (unless the recipe says
`"network": true`) and the recipe's `wheels` folder read-only at /wheels, drops `.git`, writes
`environment.json` and points `ROOT/<name>` at it (a relative link, swapped atomically): a server
reads the environment by that name. The key is `reuse_key` of everything that can change the
build (docs/service.md "Reuse keys": exact typed bytes), so an unchanged recipe is found, not
rebuilt. Older builds no name points to are pruned with `--prune`, and oldest first past the disk
bound (`--max-disk-mb`).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .config import SandboxConfig
from .contract import ENVIRONMENT_NAME, REPO_REPORTS
from .keys import reuse_key
from .languages import LANGUAGES

ENV_FILE = "environment.json"  # an environment's directory: this file ({"language": ...}) and repo/
BUILDS = ".builds"  # ROOT/.builds/<key>: one folder a build (a task cannot name it: names start with no '.')
BUILD_FORMAT = 4  # what this module does to a recipe: part of the key, raised when that changes (2: the tree sealed; 3: test_sources; 4: test_discovery)
INSTALL_TIMEOUT_S = 1800
_SHA = re.compile(r"[0-9a-f]{40}\Z")
_KEY = re.compile(r"[0-9a-f]{24}\Z")
RECIPE_KEYS = frozenset({"name", "language", "repo", "commit", "install", "wheels", "network", "test_cmd", "report"})


class RecipeError(ValueError):
    """A recipe that cannot be built as written; the message names the file and the field."""


@dataclass(frozen=True)
class Recipe:
    """One environment's recipe, its paths resolved against the recipe file's folder."""

    name: str
    language: str
    repo: str  # a git directory (bare or not) or a bundle file
    commit: str  # a full commit id, or a ref of a git directory (resolved before the key is taken)
    test_cmd: str
    report: str = "pytest"
    install: tuple[str, ...] = ()  # `sh -c` each, at the repository's root, in the language's image
    wheels: str = ""  # a folder mounted read-only at /wheels for the install steps (its bytes are in the key)
    network: bool = False  # the install steps' network: off unless the recipe asks (registries at build time)


def read_recipe(path: str | Path) -> Recipe:
    """The recipe in a JSON file, checked field by field (RecipeError naming the field): an
    allowlist of keys, each of its exact type, so a typo is refused rather than ignored."""
    path = Path(path)
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RecipeError(f"{path}: {type(e).__name__}: {e}") from None
    if not isinstance(obj, dict):
        raise RecipeError(f"{path}: a recipe is a JSON object")
    return recipe_from(obj, path.parent, str(path))


def recipe_from(obj: dict[str, Any], base: Path, where: str) -> Recipe:
    """A Recipe from its JSON object; relative paths are the recipe file's folder's (`base`)."""
    unknown = sorted(set(obj) - RECIPE_KEYS)
    if unknown:
        raise RecipeError(f"{where}: unknown field {unknown[0]!r} (fields: {', '.join(sorted(RECIPE_KEYS))})")

    def text(key: str, default: str | None = None) -> str:
        value = obj.get(key, default)
        if type(value) is not str or (default is None and not value):
            raise RecipeError(f"{where}: field {key!r} must be a non-empty string")
        return value

    name, language, report = text("name"), text("language"), text("report", "pytest")
    if not ENVIRONMENT_NAME.match(name):
        raise RecipeError(f"{where}: field 'name' must be an environment's name (letters, digits, _ . + -; "
                          "not starting with '.', at most 128)")
    if language not in LANGUAGES:
        raise RecipeError(f"{where}: field 'language' must be one of {', '.join(LANGUAGES)}")
    if report not in REPO_REPORTS:
        raise RecipeError(f"{where}: field 'report' must be one of {', '.join(REPO_REPORTS)}")
    install = obj.get("install", [])
    if type(install) is not list or not all(type(s) is str and s for s in install):
        raise RecipeError(f"{where}: field 'install' must be a list of non-empty strings (shell commands)")
    network = obj.get("network", False)
    if type(network) is not bool:
        raise RecipeError(f"{where}: field 'network' must be true or false")
    wheels = text("wheels", "")
    return Recipe(name=name, language=language, repo=str((base / text("repo")).resolve()), commit=text("commit"),
                  test_cmd=text("test_cmd"), report=report, install=tuple(install),
                  wheels=str((base / wheels).resolve()) if wheels else "", network=network)


# ----------------------------------------------------------------------------- the key
def resolve_commit(recipe: Recipe) -> str:
    """The recipe's commit as a full id: a bundle (a file) must name it in full (no ref lookup
    without unpacking it); a git directory resolves a ref (`git rev-parse`, milliseconds)."""
    if os.path.isfile(recipe.repo):
        if not _SHA.match(recipe.commit):
            raise RecipeError(f"{recipe.name}: field 'commit' must be a full 40-hex commit id for a bundle")
        return recipe.commit
    if not os.path.isdir(recipe.repo):
        raise RecipeError(f"{recipe.name}: field 'repo': {recipe.repo} is neither a git directory nor a bundle")
    res = subprocess.run(["git", "-C", recipe.repo, "rev-parse", "--verify", "-q", f"{recipe.commit}^{{commit}}"],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise RecipeError(f"{recipe.name}: field 'commit': {recipe.commit!r} is not a commit of {recipe.repo}")
    return res.stdout.strip()


def wheel_digests(folder: str) -> tuple[tuple[str, bytes], ...]:
    """Every file of the wheels folder, by relative name and SHA-256 of its bytes, in name order:
    a wheel changed in place changes the key."""
    if not folder:
        return ()
    if not os.path.isdir(folder):
        raise RecipeError(f"field 'wheels': {folder} is not a folder")
    out = []
    for dirpath, dirnames, files in os.walk(folder):
        dirnames.sort()
        for f in sorted(files):
            p = os.path.join(dirpath, f)
            h = hashlib.sha256()
            with open(p, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
            out.append((os.path.relpath(p, folder), h.digest()))
    return tuple(sorted(out))


def build_key(recipe: Recipe, commit: str, image_recipe: str, wheels: tuple[tuple[str, bytes], ...]) -> str:
    """The build's content key: reuse_key (exact typed bytes) of everything that can change the built
    folder or how it is run: the commit (not the ref, not where the repository lies), the language,
    the install steps, their network, the wheels' bytes, the test command and report, and the
    language image's recipe when there are install steps (they run in it; without any, the tree does
    not depend on the image), and then the collection plugin's bytes too (PLUGIN: what it records, test_sources,
    decides which patches are refused). The environment's name is not in it: two names of one recipe share a build."""
    parts = {"format": BUILD_FORMAT, "language": recipe.language, "commit": commit, "install": list(recipe.install),
             "network": recipe.network, "wheels": list(wheels), "test_cmd": recipe.test_cmd, "report": recipe.report,
             "image": image_recipe if recipe.install else "", "plugin": PLUGIN.read_bytes() if recipe.install else b""}
    return reuse_key("repo-env", parts).hex()[:24]


# ----------------------------------------------------------------------------- the build
@dataclass
class Built:
    """What `build_environment` did: the name's folder, its key, whether it was found cached, seconds taken."""

    name: str
    key: str
    path: str
    cached: bool
    seconds: float
    bytes: int = 0


def build_environment(recipe: Recipe, root: str | Path, config: SandboxConfig | None = None, force: bool = False,
                      progress: Callable[[str], None] = print) -> Built:
    """Build (or find) the recipe's environment under `root` and point `root/<name>` at it."""
    t0 = time.monotonic()
    root = Path(root).resolve()  # absolute: the install container mounts the tree by its path
    commit = resolve_commit(recipe)
    image_recipe = ""
    if recipe.install:
        from .build import recipe_hash

        image_recipe = recipe_hash(recipe.language)
    key = build_key(recipe, commit, image_recipe, wheel_digests(recipe.wheels))
    builds = root / BUILDS
    dest = builds / key
    cached = (dest / ENV_FILE).is_file() and not force
    if not cached:
        builds.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=builds))
        try:
            _checkout(recipe.repo, commit, tmp / "repo")
            sources: list[str] | None = None
            discovery: dict[str, Any] | None = None
            if recipe.install:
                sources, discovery = _install(recipe, tmp / "repo", config or SandboxConfig(), progress)
            shutil.rmtree(tmp / "repo" / ".git", ignore_errors=True)
            seal(str(tmp / "repo"))  # writable by its owner alone (sandbox/repo/apply.py `sealed`: a task must not change it)
            meta: dict[str, Any] = {"language": recipe.language, "name": recipe.name, "key": key, "commit": commit,
                    "test_cmd": recipe.test_cmd, "report": recipe.report, "install": list(recipe.install)}
            if sources is not None:
                meta[SOURCES_KEY] = sources
            if discovery is not None:
                meta[DISCOVERY_KEY] = discovery
            (tmp / ENV_FILE).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
            tmp.chmod(0o755)
            if force and dest.exists():
                _remove(dest)
            try:
                tmp.rename(dest)  # whole or absent: a folder with ENV_FILE is a finished build
            except OSError:
                if not (dest / ENV_FILE).is_file():
                    raise
                cached = True  # another build of the same key finished first: the same bytes
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    os.utime(dest)  # the last time a recipe asked for it: pruning goes oldest first
    _point(root, recipe.name, key)
    built = Built(recipe.name, key, str(root / recipe.name), cached, time.monotonic() - t0, tree_bytes(dest))
    progress(f"env build: {recipe.name} -> {BUILDS}/{key} ({'cached' if cached else 'built'}, "
             f"{built.seconds:.1f}s, {built.bytes / 2**20:.1f} MiB)")
    return built


def seal(root: str) -> None:
    """`chmod go-w` every file and folder of a tree (links left alone): what sandbox/repo/apply.py `sealed` asks of an environment."""
    for dirpath, dirnames, filenames in os.walk(root):
        for name in (*dirnames, *filenames, "."):
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            if not stat.S_ISLNK(st.st_mode) and st.st_mode & 0o022:
                os.chmod(p, stat.S_IMODE(st.st_mode) & ~0o022)


def _git(*args: str) -> None:
    res = subprocess.run(["git", *args], capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {res.stderr.strip()[-500:]}")


def _checkout(source: str, commit: str, dest: Path) -> None:
    """The repository at `commit` in `dest`, from a git directory or bundle, never the network
    (a local clone: objects hard-linked where they can be)."""
    _git("-c", "protocol.allow=never", "-c", "protocol.file.allow=always", "clone", "-q", "--no-checkout",
         source, str(dest))
    _git("-C", str(dest), "-c", "advice.detachedHead=false", "checkout", "-q", "--detach", commit)


def _install(recipe: Recipe, tree: Path, config: SandboxConfig,
             progress: Callable[[str], None]) -> tuple[list[str] | None, dict[str, Any] | None]:
    """Run the install steps in a container of the language's sandbox image (the interpreter the tests
    run under), as this user so the files are ours, the tree at /env/repo, the wheels at /wheels; then,
    for a pytest recipe, the test command's collection with our plugin (`sources_line`): the files that
    hold a collected test's code and pytest's resolved discovery, returned (None: not a pytest recipe, or no
    process could say its discovery)."""
    import docker

    from .build import find_image

    client = docker.DockerClient(base_url=config.docker_url) if config.docker_url else docker.from_env()
    out = Path(tempfile.mkdtemp(prefix=".sources.", dir=tree.parent))  # beside the tree: the build's own folder
    try:
        image = find_image(client, recipe.language, config.image_prefix)
        if image is None:
            raise RuntimeError(f"no {recipe.language} sandbox image: run `verifier sandbox build {recipe.language}`")
        volumes = {str(tree): {"bind": "/env/repo", "mode": "rw"}}
        if recipe.wheels:
            volumes[recipe.wheels] = {"bind": "/wheels", "mode": "ro"}
        script = "set -e\n" + "\n".join(recipe.install) + "\n"
        record = recipe.language == "python" and recipe.report in ("pytest", "pytest-log")
        if record:
            volumes[str(PLUGIN)] = {"bind": f"{_PLUGIN_DIR}/{PLUGIN_MODULE}.py", "mode": "ro"}
            volumes[str(out)] = {"bind": _OUT_DIR, "mode": "rw"}
            # the plugin on the image's user site too (HOME=/tmp): a test command setting its own PYTHONPATH drops ours
            script += (f'd=$(python3 -m site --user-site 2>/dev/null) && mkdir -p "$d" && cp {_PLUGIN_DIR}/{PLUGIN_MODULE}.py '
                       '"$d/" || true\n')
            script += sources_line(recipe.test_cmd, f"{_OUT_DIR}/{SOURCES_FILE}", _PLUGIN_DIR) + "\n"
        progress(f"env build: {recipe.name}: {len(recipe.install)} install step(s) in {image}")
        c = client.containers.run(image, ["sh", "-c", script], detach=True, volumes=volumes, working_dir="/env/repo",
                                  user=f"{os.getuid()}:{os.getgid()}", environment={"HOME": "/tmp"},
                                  network_mode="host" if recipe.network else "none")
        try:
            rc = c.wait(timeout=INSTALL_TIMEOUT_S).get("StatusCode")
            if rc != 0:
                log = c.logs().decode("utf-8", "replace")[-2000:]
                raise RuntimeError(f"{recipe.name}: the install steps exited {rc}:\n{log}")
        finally:
            c.remove(force=True)
        if not record:
            return None, None
        return read_sources(out / SOURCES_FILE, "/env/repo"), read_discovery(out / SOURCES_FILE, "/env/repo")
    finally:
        shutil.rmtree(out, ignore_errors=True)
        client.close()


# ----------------------------------------------------------------------------- where the tests' code lives
# At env build the test command collects its tests once with our plugin (sandbox/repo/sources_plugin.py) on the
# environment's own tree, and environment.json keeps the files that hold a collected test's code (SOURCES_KEY): a
# patch may not touch one (sandbox/repo_job.py `environment_sources`; docs/repo-tasks.md "Trust model"; rt18 class A).
SOURCES_KEY = "test_sources"
PLUGIN = Path(__file__).resolve().parent / "repo" / "sources_plugin.py"
PLUGIN_MODULE = "verifier_test_sources"  # the name it is loaded by (`-p`): no project's module
SOURCES_FILE = "sources.jsonl"
SOURCES_MAX_BYTES = 16 << 20  # the plugin's output read at most: a tree's files, one path each
SOURCES_MAX_FILES = 100_000
_PLUGIN_DIR, _OUT_DIR = "/verifier-plugin", "/verifier-out"


def sources_line(test_cmd: str, out: str, plugin_dir: str) -> str:
    """The shell line that runs `test_cmd` to collect only, with the plugin (a file `PLUGIN_MODULE`.py in
    `plugin_dir`) writing to `out`: no test runs, no bytecode or cache is written into the tree, and its exit status
    is not the build's (a collection error leaves the other modules' tests recorded); its output goes to `out`.log
    (`read_sources` shows its end where nothing was recorded)."""
    env = {"VERIFIER_SOURCES_OUT": out, "PYTHONDONTWRITEBYTECODE": "1",
           "PYTEST_ADDOPTS": f"-p {PLUGIN_MODULE} -p no:cacheprovider --collect-only -q"}
    assigns = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    return (f"{assigns} PYTHONPATH={plugin_dir}${{PYTHONPATH:+:$PYTHONPATH}} sh -c {shlex.quote(test_cmd)} "
            f">{shlex.quote(out + '.log')} 2>&1 || true")


def read_sources(path: str | Path, root: str) -> list[str]:
    """The plugin's record (`path`, JSON lines) as the tree's files, relative to `root` (the tree's path where the
    collection ran), sorted; files outside the tree (the standard library, site-packages) are not the patch's to
    change anyway. RuntimeError (the build fails) where there is no record (pytest did not start, or did not load the
    plugin: a test command that sets PYTHONPATH in a virtual environment), or one that does not read or is past its
    bounds: never a silently unprotected environment."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(SOURCES_MAX_BYTES + 1)
    except FileNotFoundError:
        try:
            with open(f"{path}.log", "rb") as fh:
                log = fh.read()[-2000:].decode("utf-8", "replace")
        except OSError:
            log = ""
        raise RuntimeError("the test command's collection (pytest --collect-only with the plugin recording where the "
                           "tests' code lives, docs/repo-tasks.md \"Trust model\") recorded nothing: pytest did not start "
                           f"or did not load {PLUGIN_MODULE}:\n{log}") from None
    if len(data) > SOURCES_MAX_BYTES:
        raise RuntimeError(f"the test collection's record of test files is over {SOURCES_MAX_BYTES >> 20} MiB")
    files: set[str] = set()
    for line in data.splitlines():
        try:
            names = json.loads(line)["files"]
        except (ValueError, KeyError, TypeError):
            raise RuntimeError("the test collection's record of test files does not read") from None
        if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
            raise RuntimeError("the test collection's record of test files does not read")
        files.update(rel for rel in (_relative(n, root) for n in names) if rel)
    if len(files) > SOURCES_MAX_FILES:
        raise RuntimeError(f"the test collection recorded over {SOURCES_MAX_FILES} files holding tests")
    return sorted(files)


# Each pytest process's resolved discovery (the plugin's `discovery`, rt18 D and E) and the Python test modules it
# collected, kept in environment.json (DISCOVERY_KEY) for admission (sandbox/repo/patch.py `Discovery`).
DISCOVERY_KEY = "test_discovery"
DISCOVERY_MAX_PROCESSES = 1000  # pytest sessions of one collection recorded
DISCOVERY_MAX_WORDS = 1000  # roots or patterns of one session


def read_discovery(path: str | Path, root: str) -> dict[str, Any] | None:
    """The plugin's discovery records (`path`, the JSON lines `read_sources` reads: it runs first and bounds them) as
    {"processes": [{"roots", "python_files", "doctest_glob", "doctest_modules", "rootdir"}], "modules": [...]}, paths
    relative to `root` (a root holding the whole tree is "", one outside it dropped). None where a process could
    not say (an old pytest: admission then reads the configuration's text, over-inclusive); RuntimeError where a
    record does not read."""
    with open(path, "rb") as fh:
        lines = fh.read(SOURCES_MAX_BYTES + 1).splitlines()
    processes: list[dict[str, Any]] = []
    modules: set[str] = set()
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            raise RuntimeError("the test collection's record of test discovery does not read") from None
        if not isinstance(record, dict):
            raise RuntimeError("the test collection's record of test discovery does not read")
        if "modules" in record:
            modules.update(rel for rel in (_relative(n, root) for n in _words(record["modules"])) if rel)
        if "discovery" not in record:
            continue
        found = record["discovery"]
        if found is None:
            return None
        if not isinstance(found, dict) or not isinstance(found.get("doctest_modules"), bool):
            raise RuntimeError("the test collection's record of test discovery does not read")
        roots = [r for r in (_holding(n, root) for n in _words(found.get("roots"))) if r is not None]
        named = found.get("rootdir")
        rootdir = _holding(named, root) if isinstance(named, str) else None
        processes.append({"roots": sorted(set(roots)), "python_files": _words(found.get("python_files")),
                          "doctest_glob": _words(found.get("doctest_glob")),
                          "doctest_modules": found["doctest_modules"], "rootdir": rootdir})
    if len(processes) > DISCOVERY_MAX_PROCESSES:
        raise RuntimeError(f"the test collection recorded over {DISCOVERY_MAX_PROCESSES} pytest sessions")
    return {"processes": processes, "modules": sorted(modules)}


def _words(value: object) -> list[str]:
    """A record's list of strings, bounded; RuntimeError where it is not one."""
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value)) or len(value) > DISCOVERY_MAX_WORDS:
        raise RuntimeError("the test collection's record of test discovery does not read")
    return list(value)


def _holding(name: str, root: str) -> str | None:
    """`name` (an absolute folder or file) relative to `root`: "" where it holds the whole tree, None outside it."""
    if not os.path.isabs(name):
        return None
    name = os.path.normpath(name)
    if name == root or root.startswith(name.rstrip("/") + "/"):
        return ""
    return _relative(name, root)


def _relative(name: str, root: str) -> str | None:
    """`name` (an absolute path) relative to `root`, None where it is not inside it."""
    if not os.path.isabs(name):
        return None
    rel = os.path.relpath(os.path.normpath(name), root)
    return None if rel == "." or rel.startswith("../") or rel == ".." else rel


def _point(root: Path, name: str, key: str) -> None:
    """`root/name` becomes a relative link to `.builds/key`, replaced atomically (a server reading the
    name sees the old build or the new, never neither). A real folder of that name is the operator's:
    refused, never removed."""
    link = root / name
    if link.exists() and not link.is_symlink():
        raise RecipeError(f"{link} exists and is not a link made by `env build`: remove it or choose another name")
    tmp = root / f".{name}.{os.getpid()}.link"
    tmp.unlink(missing_ok=True)
    os.symlink(f"{BUILDS}/{key}", tmp)
    os.replace(tmp, link)


# ----------------------------------------------------------------------------- pruning
def tree_bytes(path: str | Path) -> int:
    """Disk a folder takes (allocated blocks, each inode once, links not followed)."""
    seen, total = set(), 0
    for dirpath, dirnames, files in os.walk(path):
        for f in (*dirnames, *files):
            st = os.lstat(os.path.join(dirpath, f))
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total


@dataclass(frozen=True)
class BuildDir:
    key: str
    bytes: int
    mtime: float


def to_prune(builds: list[BuildDir], referenced: set[str], max_bytes: int | None, prune_all: bool) -> list[str]:
    """The keys to remove: builds no name points to, all of them with `prune_all`, else the oldest
    first while the total is over `max_bytes` (None: no bound). A build a name points to is never
    chosen, whatever the bound (`over_bound` says when they alone exceed it)."""
    free = sorted((b for b in builds if b.key not in referenced), key=lambda b: (b.mtime, b.key))
    if prune_all:
        return [b.key for b in free]
    total = sum(b.bytes for b in builds)
    out = []
    for b in free:
        if max_bytes is None or total <= max_bytes:
            break
        out.append(b.key)
        total -= b.bytes
    return out


def referenced_keys(root: str | Path) -> set[str]:
    """The builds a name of `root` points to (every link `root/NAME -> .builds/KEY`)."""
    out = set()
    for entry in Path(root).iterdir():
        if entry.is_symlink():
            target = os.readlink(entry)
            head, _, key = target.partition("/")
            if head == BUILDS and _KEY.match(key):
                out.add(key)
    return out


def list_builds(root: str | Path) -> list[BuildDir]:
    builds = Path(root) / BUILDS
    if not builds.is_dir():
        return []
    return [BuildDir(d.name, tree_bytes(d), d.stat().st_mtime) for d in sorted(builds.iterdir())
            if _KEY.match(d.name) and d.is_dir()]


def prune(root: str | Path, max_bytes: int | None, prune_all: bool, progress: Callable[[str], None] = print) -> int:
    """Remove the builds `to_prune` chooses; returns the bytes the builds take afterwards. Each is
    renamed to a hidden name first, so no name ever points to a half-removed folder. A server that
    planned a task on a build the moment before it went answers that task infra_error (not retried)."""
    builds = list_builds(root)
    gone = set(to_prune(builds, referenced_keys(root), max_bytes, prune_all))
    for key in sorted(gone):
        _remove(Path(root) / BUILDS / key)
        progress(f"env build: removed the older build {BUILDS}/{key}")
    return sum(b.bytes for b in builds if b.key not in gone)


def _remove(path: Path) -> None:
    trash = path.with_name(f".{path.name}.pruned.{os.getpid()}")
    path.rename(trash)
    shutil.rmtree(trash)


def build_all(paths: list[str], root: str, force: bool = False, prune_all: bool = False, max_bytes: int | None = None,
              config: SandboxConfig | None = None, progress: Callable[[str], None] = print) -> list[Built]:
    """`verifier env build`: every recipe, then pruning. RuntimeError when the builds a name points
    to alone take more than the bound (nothing of theirs is removed)."""
    recipes = [read_recipe(p) for p in paths]  # every recipe checked before anything is built
    names = [r.name for r in recipes]
    if len(set(names)) != len(names):
        raise RecipeError(f"two recipes name the environment {next(n for n in names if names.count(n) > 1)!r}")
    Path(root).mkdir(parents=True, exist_ok=True)
    built = [build_environment(r, root, config, force, progress) for r in recipes]
    total = prune(root, max_bytes, prune_all, progress)
    if max_bytes is not None and total > max_bytes:
        raise RuntimeError(f"the environments in use take {total / 2**20:.1f} MiB, over the bound of "
                           f"{max_bytes / 2**20:.1f} MiB (--max-disk-mb)")
    return built


def as_dict(b: Built) -> dict[str, Any]:
    return dataclasses.asdict(b)
