"""The Debian mirror this machine's apt already uses, for debootstrap (standard library only).

Image builds read the mirror from the machine's own configuration instead of naming a host in the
repository: `SANDBOX_DEBIAN_MIRROR` when set, else the first apt source that serves the suite
(one-line `sources.list` entries and deb822 `.sources` files), else "" (debootstrap's default).
Run as a script, it prints that mirror (deploy/build_offline.sh uses it).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APT_DIR = Path("/etc/apt")


def _one_line_entries(text: str) -> list[tuple[str, list[str]]]:
    """(uri, [suite]) of each `deb [options] URI SUITE COMPONENTS...` line."""
    entries = []
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if not words or words[0] != "deb":
            continue
        words = words[1:]
        if words and words[0].startswith("["):  # options: [arch=amd64 signed-by=...]
            while words and not words[0].endswith("]"):
                words.pop(0)
            words = words[1:]
        if len(words) >= 2:
            entries.append((words[0], [words[1]]))
    return entries


def _deb822_entries(text: str) -> list[tuple[str, list[str]]]:
    """(uri, suites) of each stanza of type deb in a deb822 `.sources` file."""
    entries = []
    for stanza in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in stanza.splitlines():
            if line.startswith("#") or ":" not in line:
                continue
            key, _, value = line.partition(":")
            fields[key.strip().lower()] = value.strip()
        if "deb" in fields.get("types", "").split() and fields.get("enabled", "yes").lower() != "no":
            for uri in fields.get("uris", "").split():
                entries.append((uri, fields.get("suites", "").split()))
    return entries


def apt_entries(apt_dir: Path = APT_DIR) -> list[tuple[str, list[str]]]:
    """Every deb source of the machine, in apt's reading order."""
    entries = []
    main = apt_dir / "sources.list"
    if main.is_file():
        entries += _one_line_entries(main.read_text(errors="replace"))
    parts = apt_dir / "sources.list.d"
    if parts.is_dir():
        for path in sorted(parts.iterdir()):
            if path.suffix == ".list":
                entries += _one_line_entries(path.read_text(errors="replace"))
            elif path.suffix == ".sources":
                entries += _deb822_entries(path.read_text(errors="replace"))
    return entries


def debian_mirror(suite: str = "bookworm", apt_dir: Path = APT_DIR) -> str:
    """The mirror to debootstrap `suite` from; "" means debootstrap's own default."""
    override = os.environ.get("SANDBOX_DEBIAN_MIRROR", "").strip()
    if override:
        return override
    for uri, suites in apt_entries(apt_dir):
        if suite in suites:
            return uri
    return ""


if __name__ == "__main__":
    print(debian_mirror(sys.argv[1] if len(sys.argv) > 1 else "bookworm"))
