"""`verifier sandbox build` pruning: checkouts with different recipes share one Docker daemon.

Pruning every other tag of a repository deleted the images another worktree had just built (its
server then found no image). Now nothing is pruned unless asked (`--prune`), and then only
images older than the current recipe's and used by no container."""
from __future__ import annotations

import io
import time

import docker
import pytest

from sandbox.build import _prune, default_base, stale_tags
from sandbox.cli import add_subcommands

KEEP = {"python": "p-python:new", "c": "p-c:cur"}


def img(id_: str, tags: list[str], created: int) -> dict:
    return {"Id": id_, "RepoTags": tags, "Created": created}


def test_only_older_unused_tags_of_the_built_repositories_are_stale():
    images = [
        img("new", ["p-python:new"], 100),
        img("old", ["p-python:old"], 50),            # older, unused: stale
        img("busy", ["p-python:busy"], 40),          # older but a container uses it
        img("newer", ["p-python:other-tree"], 200),  # another checkout's newer recipe
        img("same", ["p-python:twin"], 100),         # built in the same second: not older
        img("cur", ["p-c:cur", "p-c:alias"], 90),    # another tag of the kept image itself
        img("x", ["other-repo:old"], 1),             # not one of ours
        img("none", [], 1),
    ]
    assert stale_tags(KEEP, images, used={"busy"}) == ["p-python:old"]
    assert stale_tags(KEEP, images, used={"busy", "old"}) == []
    assert stale_tags({"python": "p-python:old"}, images, used={"busy"}) == []  # only a used image is older
    assert stale_tags({"python": "p-python:old"}, images, used=set()) == ["p-python:busy"]


def test_build_prunes_only_when_asked():
    import argparse

    parser = argparse.ArgumentParser()
    add_subcommands(parser.add_subparsers(dest="cmd"))
    assert parser.parse_args(["sandbox", "build"]).prune is False
    assert parser.parse_args(["sandbox", "build", "--prune", "python"]).prune is True
    build = parser._subparsers._group_actions[0].choices["sandbox"]._subparsers._group_actions[0].choices["build"]
    text = " ".join(build.format_help().split())  # argparse wraps lines at the widest option
    assert "--prune" in text and "no container" in text
    assert "--rootfs" in text and "gVisor" in text


def test_a_language_after_rootfs_is_refused_not_taken_as_the_folder(capsys, tmp_path, monkeypatch):
    """`--rootfs [DIR]` takes the next word, so `--rootfs python` once built every language into ./python."""
    import argparse

    parser = argparse.ArgumentParser()
    add_subcommands(parser.add_subparsers(dest="cmd"))
    monkeypatch.chdir(tmp_path)
    args = parser.parse_args(["sandbox", "build", "--rootfs", "python"])
    assert args.func(args) == 2
    assert "verifier sandbox build python --rootfs" in capsys.readouterr().err
    assert not (tmp_path / "python").exists()


@pytest.mark.docker
def test_prune_on_a_real_daemon_keeps_newer_and_used_images():
    client = docker.from_env()
    base = default_base()
    try:
        client.images.get(base)
    except docker.errors.ImageNotFound:
        pytest.fail(f"no base image {base}: run `verifier sandbox build`")
    repo = "pytest-prune-probe"
    built = {}
    try:
        for name in ("old", "used", "kept", "newer"):
            dockerfile = f"FROM {base}\nLABEL probe={name}\n".encode()
            image, _ = client.images.build(fileobj=io.BytesIO(dockerfile), tag=f"{repo}:{name}", pull=False, rm=True)
            built[name] = image.id
            time.sleep(1.1)  # Created has one-second resolution
        box = client.containers.create(f"{repo}:used", command=["true"])
        try:
            _prune(client, {"python": f"{repo}:kept"}, progress=lambda m: None)
            left = {t for i in client.api.images(name=repo) for t in i["RepoTags"] or ()}
        finally:
            box.remove(force=True)
        assert left == {f"{repo}:used", f"{repo}:kept", f"{repo}:newer"}, left
    finally:
        for name in built:
            try:
                client.images.remove(f"{repo}:{name}", force=True)
            except docker.errors.APIError:
                pass
        client.close()


# Root filesystems (`--rootfs --prune`): the same rule as images, and never a folder a server holds.
def _rootfs(base, name: str, age_s: float) -> str:
    """A root filesystem folder as export_rootfs leaves it (its runner inside), `age_s` old."""
    import os

    (base / name / "opt/sandbox/harness").mkdir(parents=True)
    (base / name / "opt/sandbox/harness/runner.py").write_text("# runner\n")
    t = time.time() - age_s
    os.utime(base / name, (t, t))
    return str(base / name)


def test_prune_rootfs_removes_older_folders_of_the_built_languages_only(tmp_path):
    import subprocess
    import sys

    from sandbox.build import prune_rootfs

    _rootfs(tmp_path, "p-python-000000000001", 10)            # the kept recipe's
    _rootfs(tmp_path, "p-python-000000000002", 100)           # older: stale
    _rootfs(tmp_path, "p-python-000000000003", 1)             # another checkout's newer recipe
    held = _rootfs(tmp_path, "p-python-000000000004", 100)    # older, but a server holds it
    _rootfs(tmp_path, "p-c-000000000005", 100)                # a language not built now
    _rootfs(tmp_path, "p-python-other", 100)                  # not a recipe hash: not ours
    # another process holds the folder as a gVisor server does (GvisorBackend.find_images)
    holder = subprocess.Popen([sys.executable, "-c", "import sys; from sandbox.build import hold_rootfs; "
                               f"print(hold_rootfs({held!r}), flush=True); sys.stdin.read()"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() != "None"
        removed = prune_rootfs(tmp_path, {"python": "p-python:000000000001"}, progress=lambda m: None)
    finally:
        holder.communicate("")
    assert removed == ["p-python-000000000002"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "p-c-000000000005", "p-python-000000000001", "p-python-000000000003", "p-python-000000000004", "p-python-other"]
    # the holder is gone: now the older folder goes too
    assert prune_rootfs(tmp_path, {"python": "p-python:000000000001"}, progress=lambda m: None) == ["p-python-000000000004"]


def test_a_gvisor_server_holds_its_root_filesystems_until_it_closes(tmp_path):
    """The backend finds its folder and holds it: a prune keeps it while the backend is open (a
    running server), and removes it once the backend has closed."""
    from sandbox import SandboxConfig
    from sandbox.build import image_tag, prune_rootfs, rootfs_name
    from sandbox.gvisor import GvisorBackend

    current = image_tag("python", "p")
    _rootfs(tmp_path, rootfs_name(current), 100)
    _rootfs(tmp_path, "p-python-ffffffffffff", 1)  # a newer recipe exported since
    backend = GvisorBackend(SandboxConfig(backend="gvisor", image_prefix="p", languages=("python",), rootfs_dir=str(tmp_path)))
    found, missing = backend.find_images(("python",))
    assert found == {"python": str(tmp_path / rootfs_name(current))} and not missing
    try:
        assert prune_rootfs(tmp_path, {"python": "p-python:ffffffffffff"}, progress=lambda m: None) == []
    finally:
        backend.close()
    assert prune_rootfs(tmp_path, {"python": "p-python:ffffffffffff"}, progress=lambda m: None) == [rootfs_name(current)]
    assert GvisorBackend(backend.config).find_images(("python",)) == ({}, ["python"])


# One name, from one set of facts (issue 30): the host that builds and the server that looks up
# (inside the service's image, with no debootstrap) computed different tags for the same recipe.
def test_a_recipes_tag_is_the_same_wherever_it_is_computed(monkeypatch):
    from sandbox.build import REGISTRY_BASE, base_tag, image_tag
    from sandbox.languages import LANGUAGES

    monkeypatch.delenv("SANDBOX_BASE_IMAGE", raising=False)
    monkeypatch.setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
    if default_base() != base_tag():
        pytest.fail("debootstrap is not installed: run scripts/ensure_docker.sh (make test does)")
    here = {lang: image_tag(lang) for lang in LANGUAGES}
    monkeypatch.setenv("PATH", "/nonexistent")  # as inside the service's image: no debootstrap
    assert default_base() == REGISTRY_BASE  # the build would take another base ...
    assert {lang: image_tag(lang) for lang in LANGUAGES} == here  # ... the name stays the recipe's
    monkeypatch.setenv("SANDBOX_BASE_IMAGE", "debian:bookworm")
    assert {lang: image_tag(lang) for lang in LANGUAGES} == here


def test_a_recipes_tag_changes_with_every_file_of_the_recipe(tmp_path, monkeypatch):
    """The near misses: one byte more in the base's recipe, a Dockerfile or a harness file is another tag."""
    import shutil

    import sandbox.build as build

    before = build.image_tag("python")
    for folder, name in ((build.IMAGES, "base.recipe"), (build.IMAGES, "python.Dockerfile"), (build.HARNESS, "runner.py")):
        copy = tmp_path / folder.name / name
        shutil.copytree(folder, copy.parent, dirs_exist_ok=True)
        copy.write_bytes(copy.read_bytes() + b"\n")
        with monkeypatch.context() as m:
            m.setattr(build, "IMAGES" if folder == build.IMAGES else "HARNESS", copy.parent)
            assert build.image_tag("python") != before, name
    assert build.image_tag("python") == before


@pytest.mark.docker
def test_the_server_finds_a_recipes_image_by_its_labels_not_by_a_name():
    """build.find_image: a copy of the image under another name is found (pushed and pulled, or
    another prefix); an image that merely has the recipe's name, without the labels, is not."""
    from sandbox.build import LABEL_RECIPE, build_images, find_image, image_tag, recipe_hash

    tags = build_images(["python"], progress=lambda m: None)
    client = docker.from_env()
    built = client.images.get(tags["python"])
    assert built.labels[LABEL_RECIPE] == recipe_hash("python")
    other, impostor = "pytest-registry.example/sandbox-python:copy", image_tag("python", "pytest-impostor")
    try:
        assert find_image(client, "python") == tags["python"]  # its own name first
        built.tag(other)
        assert find_image(client, "python", "pytest-other-prefix") in (tags["python"], other)  # any name, same labels
        client.images.build(fileobj=io.BytesIO(f"FROM {other}\nLABEL {LABEL_RECIPE}=000000000000\n".encode()),
                            tag=impostor, pull=False, rm=True)
        assert client.images.get(impostor).id != built.id
        assert find_image(client, "python", "pytest-impostor") in (tags["python"], other)  # not the impostor
    finally:
        for tag in (impostor, other):
            try:
                client.images.remove(tag)
            except docker.errors.APIError:
                pass
        client.close()
