"""The README and its reference pages (docs/*.md) hold together: every relative link resolves (the
file exists, an `#anchor` is a heading of it by GitHub's slug rules), every citation of a page's
section anywhere in the repo names a heading of that page, and every command and repo path the
pages show exists (a `make` target, a `verifier` subcommand, a file or folder). Nothing is spawned:
the CLI's parser is built in-process. Docs that drift from the code fail here, not in a reader's hands.
"""
from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

import pytest

from verifier.tools.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^\s*```[\w+-]*\s*$")
LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
# A cited section: a markdown file's path (or the bare word README), then the section's name in
# quotes, possibly wrapped across comment lines (`#`, `//`) and escaped inside a string literal.
CITATION = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md|README)(?:\s+(?:#|//)?\s*)(\\?[\"'])((?:(?!\2).){1,120}?)\2", re.S)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup dropped, lower case, punctuation but `-` and `_` removed, spaces -> `-`."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays
    text = text.replace("`", "").replace("*", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def prose(text: str) -> str:
    """The text outside fenced code blocks (a `#` line in a code block is no heading)."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            out.append(line)
    return "\n".join(out)


def code_blocks(text: str) -> list[str]:
    """The lines inside fenced code blocks."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif fenced:
            out.append(line)
    return out


def headings(path: Path) -> list[str]:
    """The heading texts of a markdown file, in order."""
    return [m.group(1).strip() for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", prose(path.read_text()), re.M)]


def anchors(path: Path) -> set[str]:
    """Every anchor GitHub gives the file's headings: a repeated slug gets `-1`, `-2`, ..."""
    seen: dict[str, int] = {}
    out = set()
    for h in headings(path):
        s = slug(h)
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


def names_heading(path: Path, name: str) -> bool:
    """A cited name is a heading of the file, or the start of one (`Code sandboxes` for
    `Code sandboxes (sandbox/)`); markup in the heading is ignored."""
    name = " ".join(name.split())
    for h in headings(path):
        h = h.replace("`", "")
        if h == name or (h.startswith(name) and not h[len(name)].isalnum()):
            return True
    return False


def repo_text_files() -> list[Path]:
    """Tracked and new (not ignored) files that read as text; this file's own examples excluded."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    out = []
    for rel in listed:
        path = ROOT / rel
        if path.is_file() and path != Path(__file__).resolve():
            try:
                path.read_text()
            except (UnicodeDecodeError, OSError):
                continue
            out.append(path)
    return out


def broken_links(page: Path) -> list[str]:
    """The relative links of one page whose file or anchor does not exist."""
    bad = []
    for target in LINK.findall(prose(page.read_text())):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        dest = (page.parent / file_part).resolve() if file_part else page
        if not dest.exists():
            bad.append(f"{page.name}: {target} (no such file)")
        elif anchor and (dest.suffix != ".md" or anchor not in anchors(dest)):
            bad.append(f"{page.name}: {target} (no such heading)")
    return bad


def bad_citations(text: str, where: str) -> list[str]:
    """The `page "Section"` citations in one text whose page or section does not exist."""
    bad = []
    for m in CITATION.finditer(text):
        ref, name = m.group(1), m.group(3).replace("\\", "")
        name = " ".join(re.sub(r"\n\s*(?:#|//)?", " ", name).split())
        path = ROOT / ("README.md" if ref == "README" else ref)
        if not path.is_file():
            bad.append(f"{where}: {ref} {name!r} (no such file)")
        elif not names_heading(path, name):
            bad.append(f"{where}: {ref} {name!r} (no such heading)")
    return bad


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken_links(page) == []


def test_every_cited_section_is_a_heading_of_its_page() -> None:
    bad, seen = [], 0
    for path in repo_text_files():
        text = path.read_text()
        seen += len(CITATION.findall(text))
        bad += bad_citations(text, path.relative_to(ROOT).as_posix())
    assert seen >= 100  # the scan sees the repo's citations
    assert bad == []


def _make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text()
    targets = {t for m in re.finditer(r"^([\w./$()-][^:=\n]*):(?!=)", text, re.M) for t in m.group(1).split()}
    phony = re.search(r"^\.PHONY:(.*)$", text, re.M)
    return targets | set(phony.group(1).split() if phony else ())


def _verifier_commands() -> dict[str, set[str]]:
    """`verifier`'s subcommands, each with its own subcommands (`sandbox build`), from the parser."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {name: {c for a in p._actions if isinstance(a, argparse._SubParsersAction) for c in a.choices}
            for name, p in sub.choices.items()}


def _shown_commands(page: Path) -> list[str]:
    """The code a page shows: its code blocks' lines and its inline code spans."""
    text = page.read_text()
    return code_blocks(text) + re.findall(r"`([^`\n]+)`", prose(text))


def bad_commands(page: Path, targets: set[str], commands: dict[str, set[str]]) -> list[str]:
    """`make TARGET` and `verifier SUBCOMMAND [SUBCOMMAND]` a page shows that do not exist."""
    bad = []
    for code in _shown_commands(page):
        code = re.sub(r"(?:^|\s)#.*", "", code)  # a shell comment is prose ("one verifier per node")
        for target in re.findall(r"(?<![\w-])make\s+([a-z][\w-]*)", code):
            if target not in targets:
                bad.append(f"{page.name}: make {target}")
        for name, rest in re.findall(r"(?<![\w./-])verifier\s+([a-z][\w-]*)((?:\s+[a-z][\w-]*)?)", code):
            if name not in commands:
                bad.append(f"{page.name}: verifier {name}")
            elif commands[name] and rest.strip() and rest.strip() not in commands[name]:
                bad.append(f"{page.name}: verifier {name}{rest}")
    return bad


def test_every_command_shown_exists() -> None:
    targets, commands = _make_targets(), _verifier_commands()
    assert {"serve", "test"} <= targets and {"serve", "grade", "sandbox"} <= set(commands)
    assert [b for page in PAGES for b in bad_commands(page, targets, commands)] == []


PATHLIKE = re.compile(r"^[\w.-]+(?:/[\w.-]+)*(?:/|/[\w-]+\.[A-Za-z]\w*)$")


def missing_paths(page: Path) -> list[str]:
    """Repo paths shown in backticks (a `/` and an extension, or a trailing `/`) that do not exist.
    A repo path starts at a top-level folder of this repo (or the page's own); absolute and home
    paths, URLs, globs, placeholders and other projects' paths (`lcb_runner/...`) are not."""
    top = {p.name for p in ROOT.iterdir()} | {p.name for p in page.parent.iterdir()} | {"..", "."}
    bad = []
    for span in re.findall(r"`([^`\n]+)`", prose(page.read_text())):
        path = span.split("::")[0].split(":")[0] if not re.match(r"[a-z]+://", span) else ""
        if "/" not in path or not PATHLIKE.match(path) or path.split("/")[0] not in top:
            continue
        if not ((ROOT / path).exists() or (page.parent / path).exists()):
            bad.append(f"{page.name}: {span}")
    return bad


def test_every_repo_path_shown_exists() -> None:
    assert [b for page in PAGES for b in missing_paths(page)] == []


def test_the_checks_catch_a_broken_link_citation_command_and_path(tmp_path: Path) -> None:
    """Each check fails on a break: a missing file or heading, a wrong section, an unknown command."""
    page = tmp_path / "page.md"
    page.write_text("# Top\n\n## Two words\n\n[ok](#two-words) [gone](#three-words) [nofile](nope.md)\n\n"
                    "```bash\nmake serve\nmake no-such-target\nverifier grade x\nverifier nonesuch\n"
                    "verifier sandbox nonesuch\n```\n\n`verifier/tools/cli.py` `verifier/no_such_file.py`\n")
    assert broken_links(page) == ["page.md: #three-words (no such heading)", "page.md: nope.md (no such file)"]
    assert bad_commands(page, _make_targets(), _verifier_commands()) == [
        "page.md: make no-such-target", "page.md: verifier nonesuch", "page.md: verifier sandbox nonesuch"]
    assert missing_paths(page) == ["page.md: verifier/no_such_file.py"]
    cites = 'docs/tasks.md "Task schema" README "No such section" docs/nope.md "X" README "Install"'
    assert bad_citations(cites, "t") == ["t: README 'No such section' (no such heading)",
                                          "t: docs/nope.md 'X' (no such file)"]
    assert bad_citations('(docs/sandboxes.md "Sandbox\n    # backends")', "t") == []


OLD_STYLE = re.compile(r"README(?:\.md)?(?:'s|,|:)\s*(?:\"|math section|math rules|task schema|adapter table)|"
                       r"adapter table in the README")


def test_citations_keep_one_style() -> None:
    """A section is cited one way, `docs/page.md "Section"` (or `README "Section"`), so the check
    above sees every citation; the older `README.md, "..."` and "README, math section" are gone."""
    old = [f"{p.relative_to(ROOT).as_posix()}: {m.group(0)}" for p in repo_text_files()
           for m in OLD_STYLE.finditer(p.read_text())]
    assert old == []
    assert OLD_STYLE.search('(README.md, "Task schema")') and OLD_STYLE.search("(README, math section)")
