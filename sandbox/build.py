"""Build the sandbox images, offline from Debian packages when no registry is reachable.

Offline path (the default where `debootstrap` exists): one base rootfs from
`debootstrap --variant=minbase` (sandbox/images/base.recipe), imported with `docker import`;
then each language's Dockerfile runs FROM that base with `apt-get install` of its packages
(build containers use the host network: the Debian mirror is reachable, a registry is not).
Languages build in parallel. Every tag is a hash of its recipe, the checkout's files only
(recipe_hash: Dockerfile + sandbox/harness/*.py, the runner among them, + base.recipe), so an
unchanged recipe is never rebuilt and `verifier sandbox build` is then instant, and a server finds
the image from the same files wherever it runs: on the host, or inside the service's image, where
debootstrap is not installed (issue 30). The images carry that hash as a label (LABEL_RECIPE) and
the Docker backend looks them up by it (find_image), so a pushed or retagged copy is found too.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Sequence

import docker

from .apt_sources import debian_mirror
from .config import SandboxConfig
from .languages import LANGUAGES

HERE = Path(__file__).resolve().parent
IMAGES = HERE / "images"
HARNESS = HERE / "harness"  # every container-side program, the runner too: copied to /opt/sandbox/harness
RUNNER_IN_ROOTFS = "opt/sandbox/harness/runner.py"  # PID 1 of each sandbox (every recipe's CMD)


def harness_files() -> list[Path]:
    return sorted(HARNESS.glob("*.py"))
REGISTRY_BASE = "debian:bookworm-slim"
DEBOOTSTRAP_TIMEOUT_S = 900


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(hashlib.sha256(p).digest())
    return h.hexdigest()[:12]


def _read_recipe() -> dict[str, str]:
    out = {}
    for line in (IMAGES / "base.recipe").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            key, _, value = line.partition(" ")
            out[key] = value.strip()
    return out


def base_tag(prefix: str = "grpo-sandbox") -> str:
    """Tag of the offline base image: a hash of base.recipe (the mirror does not change what is built)."""
    return f"{prefix}-base:{_digest((IMAGES / 'base.recipe').read_bytes())}"


def default_base() -> str:
    """The base to build FROM here: the offline debootstrap base where debootstrap exists (this
    machine), else the registry's. A choice of the build only: it is no part of recipe_hash (the
    built image records it in LABEL_BASE), so the server, which computes the hash where debootstrap
    is not installed, names the same image."""
    if os.environ.get("SANDBOX_BASE_IMAGE"):
        return os.environ["SANDBOX_BASE_IMAGE"]
    return base_tag() if shutil.which("debootstrap") else REGISTRY_BASE


# Labels every language image carries (build_language): what it is, found by find_image.
LABEL_LANGUAGE = "io.grpo-verifier.sandbox.language"
LABEL_RECIPE = "io.grpo-verifier.sandbox.recipe"
LABEL_BASE = "io.grpo-verifier.sandbox.base"  # the base it was built FROM (default_base), for the record


def recipe_hash(language: str) -> str:
    """The hash of a language's recipe: its Dockerfile, every harness file (name and bytes) and the
    offline base's recipe. Only files of the checkout (the sandbox package), never what is installed
    where it is computed: the host that builds and the server that looks up compute the same."""
    dockerfile = (IMAGES / f"{language}.Dockerfile").read_bytes()
    harness = [p.name.encode() + b"\0" + p.read_bytes() for p in harness_files()]
    return _digest(dockerfile, *harness, (IMAGES / "base.recipe").read_bytes())


def image_tag(language: str, prefix: str = "grpo-sandbox") -> str:
    """The tag a language's image has for the current recipe: '<prefix>-<lang>:<recipe_hash>'."""
    return f"{prefix}-{language}:{recipe_hash(language)}"


def find_image(client: docker.DockerClient, language: str, prefix: str = "grpo-sandbox") -> str | None:
    """The image of the language's current recipe on this daemon, found by its labels (the same
    recipe_hash the build wrote): image_tag when it is among them, else another tag of such an
    image (pushed and pulled under another name), else its id; None when there is none."""
    labels = [f"{LABEL_LANGUAGE}={language}", f"{LABEL_RECIPE}={recipe_hash(language)}"]
    images = client.images.list(filters={"label": labels})
    tags = [t for img in images for t in img.tags]
    want = image_tag(language, prefix)
    if want in tags:
        return want
    return tags[0] if tags else (images[0].id if images else None)


def _has_image(client: docker.DockerClient, tag: str) -> bool:
    try:
        client.images.get(tag)
        return True
    except docker.errors.ImageNotFound:
        return False


def _is_built(client: docker.DockerClient, language: str, tag: str, base: str) -> bool:
    """Whether `tag` is this recipe's image, built FROM `base`, with its labels: an image of the same
    name without them is rebuilt (the server would not find it), and so is one built FROM another
    base (SANDBOX_BASE_IMAGE changed: the same name, the base asked for)."""
    try:
        labels = client.images.get(tag).labels or {}
    except docker.errors.ImageNotFound:
        return False
    return (labels.get(LABEL_LANGUAGE) == language and labels.get(LABEL_RECIPE) == recipe_hash(language)
            and labels.get(LABEL_BASE) == base)


def build_base(client: docker.DockerClient, tag: str, progress: Callable[[str], None]) -> None:
    """debootstrap a minimal Debian into a temp dir and `docker import` it as `tag`."""
    recipe = _read_recipe()
    with tempfile.TemporaryDirectory(prefix="sandbox-rootfs-") as tmp:
        rootfs = Path(tmp) / "rootfs"
        cmd = ["debootstrap", f"--variant={recipe.get('variant', 'minbase')}"]
        if recipe.get("include"):
            cmd.append(f"--include={recipe['include'].replace(' ', ',')}")
        suite = recipe.get("suite", "bookworm")
        mirror = debian_mirror(suite)  # the machine's own apt source; "" = debootstrap's default
        cmd += [suite, str(rootfs)] + ([mirror] if mirror else [])
        progress(f"sandbox build: {' '.join(cmd)} (about a minute)")
        t0 = time.monotonic()
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=DEBOOTSTRAP_TIMEOUT_S)
        if res.returncode != 0:
            raise RuntimeError(f"debootstrap failed ({res.returncode}): {res.stdout[-1500:]}{res.stderr[-1500:]}")
        for junk in ("var/cache/apt/archives", "var/lib/apt/lists"):
            for p in (rootfs / junk).glob("*"):
                if p.is_file():
                    p.unlink()
        tar = subprocess.Popen(
            ["tar", "-C", str(rootfs), "--exclude=./proc/*", "--exclude=./sys/*", "--exclude=./dev/*",
             "--numeric-owner", "-c", "."], stdout=subprocess.PIPE)
        assert tar.stdout is not None  # stdout=PIPE
        try:
            repo, _, version = tag.rpartition(":")
            client.api.import_image_from_stream(tar.stdout, repository=repo, tag=version)
        finally:
            tar.stdout.close()
            rc = tar.wait()
        if rc != 0 or not _has_image(client, tag):
            raise RuntimeError(f"importing the base rootfs as {tag} failed (tar exit {rc})")
        progress(f"sandbox build: base {tag} in {time.monotonic() - t0:.0f}s")


def build_language(client: docker.DockerClient, language: str, base: str, tag: str,
                   progress: Callable[[str], None]) -> None:
    """`docker build` the language's Dockerfile FROM base, in a context of just the harness."""
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"sandbox-{language}-") as ctx:
        shutil.copy(IMAGES / f"{language}.Dockerfile", Path(ctx) / "Dockerfile")
        (Path(ctx) / "harness").mkdir()
        for p in harness_files():
            shutil.copy(p, Path(ctx) / "harness" / p.name)
        try:
            client.images.build(path=ctx, tag=tag, buildargs={"BASE": base}, network_mode="host",
                                rm=True, forcerm=True, pull=False,
                                labels={LABEL_LANGUAGE: language, LABEL_RECIPE: recipe_hash(language), LABEL_BASE: base})
        except docker.errors.BuildError as e:
            log = "".join(str(x.get("stream", x.get("error", ""))) for x in e.build_log)
            raise RuntimeError(f"building {tag} failed: {e.msg}\n{log[-2000:]}") from e
    progress(f"sandbox build: {tag} in {time.monotonic() - t0:.0f}s")


def rootfs_name(tag: str) -> str:
    """The root filesystem folder of an image tag: '<prefix>-<language>:<hash>' -> '<prefix>-<language>-<hash>'."""
    return tag.replace(":", "-").replace("/", "_")


def export_rootfs(client: docker.DockerClient, tag: str, rootfs_dir: str | Path,
                  progress: Callable[[str], None]) -> Path:
    """The image's filesystem as a folder `rootfs_dir/rootfs_name(tag)` (the gVisor backend's root,
    sandbox/gvisor.py): a created, never started container, exported into a temp folder renamed
    into place, so a folder that exists is whole. Kept when it exists: the name is the recipe's hash."""
    dest = Path(rootfs_dir) / rootfs_name(tag)
    if (dest / RUNNER_IN_ROOTFS).is_file():
        return dest
    t0 = time.monotonic()
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    c = client.containers.create(tag, command=["true"], network_mode="none")
    try:
        tar = subprocess.Popen(["tar", "-C", str(tmp), "-x", "--no-same-owner", "--exclude=dev/*"],
                               stdin=subprocess.PIPE)
        assert tar.stdin is not None  # stdin=PIPE
        try:
            for chunk in c.export():
                tar.stdin.write(chunk)
        finally:
            tar.stdin.close()
            rc = tar.wait()
        if rc != 0:
            raise RuntimeError(f"extracting {tag} into {tmp} failed (tar exit {rc})")
        tmp.chmod(0o755)
        tmp.rename(dest)
    finally:
        c.remove(force=True)
        shutil.rmtree(tmp, ignore_errors=True)
    progress(f"sandbox build: root filesystem {dest} in {time.monotonic() - t0:.0f}s")
    return dest


def held_rootfs(config: SandboxConfig, held: dict[str, int], languages: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
    """Each language's root filesystem folder (its recipe's tag, build.image_tag), held in `held`
    (folder -> locked fd, hold_rootfs) until the backend closes, so that `verifier sandbox build
    --rootfs --prune` leaves it: the daemonless backends' find_images (gVisor, userns). ({language:
    folder}, [languages missing])."""
    found, missing = {}, []
    for lang in languages:
        path = str(Path(config.rootfs_dir) / rootfs_name(image_tag(lang, config.image_prefix)))
        if path not in held and (fd := hold_rootfs(path)) is not None:
            held[path] = fd
        if path in held:
            found[lang] = path
        else:
            missing.append(lang)
    return found, missing


def rootfs_hint(config: SandboxConfig) -> str:
    """What to do when a daemonless backend finds no root filesystem (Backend.build_hint)."""
    return (f"no root filesystem in {config.rootfs_dir}: run `verifier sandbox build --rootfs "
            f"{config.rootfs_dir}` where Docker is, and copy that folder here")


def hold_rootfs(path: str | Path) -> int | None:
    """Open a root filesystem folder and take a shared lock on it, held (the fd kept open) while a
    server uses the folder, so that `--prune` (prune_rootfs) leaves it. None when the folder is
    gone or incomplete, or is being pruned this very moment."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        os.stat(RUNNER_IN_ROOTFS, dir_fd=fd)  # after the lock: a pruned folder is empty by now
        return fd
    except OSError:
        os.close(fd)
        return None


def prune_rootfs(rootfs_dir: str | Path, keep: dict[str, str], progress: Callable[[str], None] = print) -> list[str]:
    """Remove the root filesystem folders of older recipes of the languages in `keep` (language ->
    the tag just built or found): the same '<prefix>-<language>-<hash>' name, modified before the
    kept folder (as stale_tags takes images created before), and held by no server on this host
    (hold_rootfs: an exclusive lock that fails while any server holds its shared one). Each goes
    by a rename to a hidden name first, so no server finds a half-deleted folder. Returns the names."""
    base = Path(rootfs_dir)
    removed = []
    for tag in keep.values():
        kept = base / rootfs_name(tag)
        stem = rootfs_name(tag.rpartition(":")[0] + ":")  # '<prefix>-<language>-'
        try:
            kept_mtime = kept.stat().st_mtime
        except FileNotFoundError:
            continue
        for d in sorted(base.iterdir()):
            if (d == kept or not d.name.startswith(stem) or not re.fullmatch(r"[0-9a-f]{12}", d.name[len(stem):])
                    or d.stat().st_mtime >= kept_mtime):
                continue
            fd = os.open(d, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:  # the lock goes when the fd closes, after the folder is gone
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                trash = d.with_name(f".{d.name}.pruned")
                d.rename(trash)
                shutil.rmtree(trash)
                removed.append(d.name)
                progress(f"sandbox build: removed old root filesystem {d.name}")
            except BlockingIOError:
                progress(f"sandbox build: kept old root filesystem {d.name}: a running server uses it")
            finally:
                os.close(fd)
    return removed


def build_images(languages: Sequence[str] | None = None, force: bool = False,
                 progress: Callable[[str], None] = print, config: SandboxConfig | None = None,
                 prune: bool = False, rootfs_dir: str | None = None) -> dict[str, str]:
    """Build (or find) the image of each language; return language -> tag. Raises on failure.

    Unchanged recipes are skipped (their hash tag exists), so this is instant after the first run.
    With `rootfs_dir`, each image's filesystem is also exported there (export_rootfs) for the gVisor
    backend: the same recipe is the single source of both.
    With `prune`, older images of the same repositories go (stale_tags), and with `rootfs_dir` older
    root filesystems of the same languages too (prune_rootfs); never by default, since checkouts
    with different recipes may share one daemon and one rootfs folder and need each other's.
    """
    config = config or SandboxConfig()
    langs = list(languages or config.languages)
    for lang in langs:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    client = docker.DockerClient(base_url=config.docker_url) if config.docker_url else docker.from_env()
    try:
        base = default_base()
        tags = {lang: image_tag(lang, config.image_prefix) for lang in langs}
        todo = [lang for lang in langs if force or not _is_built(client, lang, tags[lang], base)]
        if not todo:
            progress("sandbox build: all images up to date: " + ", ".join(tags.values()))
        elif base != REGISTRY_BASE and base == base_tag() and (force or not _has_image(client, base)):
            build_base(client, base, progress)
        with ThreadPoolExecutor(max_workers=4) as ex:
            futures = [ex.submit(build_language, client, lang, base, tags[lang], progress) for lang in todo]
            for f in futures:
                f.result()
        if rootfs_dir:
            for lang in langs:
                export_rootfs(client, tags[lang], rootfs_dir, progress)
        if prune:
            _prune(client, tags, progress)
            if rootfs_dir:
                prune_rootfs(rootfs_dir, tags, progress)
        return tags
    finally:
        client.close()


def stale_tags(keep: dict[str, str], images: list[dict], used: set[str]) -> list[str]:
    """The tags `--prune` removes: other tags of the repositories in `keep` (language -> the tag
    just built or found) on images created before that repository's kept image and used by no
    container, running or stopped. Images of newer recipes stay: another checkout on the same
    daemon (a worktree with other recipes) may be using them. `images` rows are the Engine API's
    image list (Id, RepoTags, Created in epoch seconds); `used` holds image ids containers use."""
    kept = set(keep.values())
    kept_created = {t.rpartition(":")[0]: img["Created"] for img in images for t in img.get("RepoTags") or () if t in kept}
    out = []
    for img in images:
        if img["Id"] in used:
            continue
        for t in img.get("RepoTags") or ():
            repo = t.rpartition(":")[0]
            if t not in kept and repo in kept_created and img["Created"] < kept_created[repo]:
                out.append(t)
    return out


def _prune(client: docker.DockerClient, tags: dict[str, str], progress: Callable[[str], None]) -> None:
    """Remove our images of older recipes (see stale_tags): disk stays bounded when asked to."""
    images = [img for repo in {t.rpartition(":")[0] for t in tags.values()} for img in client.api.images(name=repo)]
    used = {c["ImageID"] for c in client.api.containers(all=True)}
    for old in stale_tags(tags, images, used):
        try:
            client.images.remove(old)
            progress(f"sandbox build: removed old {old}")
        except docker.errors.APIError:
            pass  # a container started meanwhile, or another build removed it: next time
