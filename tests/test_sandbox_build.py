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
