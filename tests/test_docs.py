"""The README, docs/*.md, CONTRIBUTING.md and CHANGELOG.md: every path and link they name
exists, every anchor is a heading.

Checked, in README.md, each docs/*.md, CONTRIBUTING.md and CHANGELOG.md (no network):
- Markdown links and images, `[text](target)` and `![alt](target)`, reference definitions
  `[name]: target`, and HTML `src="..."`/`href="..."`: a relative target must exist
  (relative to the document), and an `#anchor` must match a heading of the document it
  points into (GitHub's anchors); links with a scheme (https:, mailto:) are not followed;
- backticked paths, in inline code and in code blocks: a token that starts with one of the
  repository's top-level names (`bot/`, `engine/`, `.env.example`, …) must exist, relative
  to the repository's root (a `*` in it must match something).

The README also stays short (at most 8 KB), keeps the commands `make run` and `make test`
(`.ci/run` runs the latter), and links to every document; each document opens with one
line saying whom it is for.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: The documents at the top of the tree beside the README.
TOP_DOCUMENTS = (ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md")
#: The most the README may weigh, in bytes.
README_LIMIT = 8192

#: Backticked tokens starting with one of these are repository paths, from its root.
TOP_DIRECTORIES = ("bot", "engine", "docs", "tests", "devtools", "benchmarks", "migrations", ".ci")
TOP_FILES = (
    ".env.example",
    ".gitignore",
    ".pre-commit-config.yaml",
    "CHANGELOG.md",
    "CONTRIBUTING.md",
    "LICENSE",
    "Makefile",
    "pyproject.toml",
    "README.md",
)

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.MULTILINE)
HTML_LINK = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']+)["']""")
HTML_ANCHOR = re.compile(r"""\b(?:id|name)\s*=\s*["']([^"']+)["']""")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
#: What a backticked token is split on, and the punctuation trimmed from its ends.
TOKEN_SPLIT = re.compile(r"[\s\"'`(),;=\[\]]+")
TRIM = ".,:;!?"


@dataclass(frozen=True)
class Document:
    """A Markdown document, split into prose lines and code lines (numbered from 1)."""

    path: Path
    prose: list[tuple[int, str]]
    code: list[tuple[int, str]]

    @classmethod
    def read(cls, path: Path) -> Document:
        prose, code, fence = [], [], None
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            opening = FENCE.match(line)
            if fence is None and opening:
                fence = opening.group(1)
            elif fence is not None and line.strip().startswith(fence):
                fence = None
            elif fence is not None:
                code.append((number, line))
            else:
                prose.append((number, line))
        return cls(path, prose, code)

    @property
    def name(self) -> str:
        return (
            self.path.relative_to(ROOT).as_posix()
            if self.path.is_relative_to(ROOT)
            else str(self.path)
        )

    def anchors(self) -> set[str]:
        """The anchors GitHub gives this document's headings (and its explicit HTML ids)."""
        found: set[str] = set()
        seen: dict[str, int] = {}
        for _, line in self.prose:
            heading = HEADING.match(line)
            if heading:
                slug = slugify(heading.group(2))
                count = seen.get(slug, 0)
                seen[slug] = count + 1
                found.add(slug if count == 0 else f"{slug}-{count}")
            found.update(HTML_ANCHOR.findall(line))
        return found


def slugify(heading: str) -> str:
    """GitHub's anchor for a heading: its text, lower case, punctuation dropped, spaces to
    hyphens (links and inline code reduced to their text first)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    kept = "".join(
        ch
        for ch in text
        if ch in " -_" or unicodedata.category(ch)[0] in "LN" or unicodedata.category(ch) == "Mn"
    )
    return kept.replace(" ", "-")


def documents() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md")), *TOP_DOCUMENTS]


def links(document: Document) -> list[tuple[int, str]]:
    """(line, target) of every link and image in the document's prose (not in code)."""
    found = []
    for number, line in document.prose:
        text = CODE_SPAN.sub("code", line)
        found += [(number, target) for target in LINK.findall(text)]
        found += [(number, target) for target in HTML_LINK.findall(text)]
        found += [(number, target) for target in REFERENCE.findall(text)]
    return found


def backticked_paths(document: Document) -> list[tuple[int, str]]:
    """(line, token) of every token in inline code or a code block that names a repository
    path: it starts with one of the repository's top-level names."""
    pieces = [(n, span[1]) for n, line in document.prose for span in CODE_SPAN.findall(line)]
    pieces += document.code
    found = []
    for number, piece in pieces:
        for raw in TOKEN_SPLIT.split(piece):
            token = raw.rstrip(TRIM)
            if any(ch in token for ch in "<>{}$"):
                continue  # a template such as bot/i18n/locales/<code>/..., not a path
            directory = token.split("/", 1)[0] if "/" in token else None
            if directory in TOP_DIRECTORIES or token in TOP_FILES:
                found.append((number, token))
    return found


def exists(path: Path) -> bool:
    return any(path.parent.glob(path.name)) if "*" in str(path) else path.exists()


def broken_links(document: Document) -> list[str]:
    """Every link, image, anchor and backticked path of the document that leads nowhere."""
    broken = []
    where = document.name
    for number, target in links(document):
        if SCHEME.match(target):
            continue
        path_text, _, anchor = target.partition("#")
        if not path_text:
            if anchor not in document.anchors():
                broken.append(f"{where}:{number}: #{anchor} is no heading of {where}")
            continue
        path = (document.path.parent / path_text).resolve()
        if not path.is_relative_to(ROOT):
            broken.append(f"{where}:{number}: {target} leads out of the repository")
        elif not path.exists():
            broken.append(f"{where}:{number}: {target} does not exist")
        elif anchor and path.suffix == ".md" and anchor not in Document.read(path).anchors():
            broken.append(f"{where}:{number}: {target}: #{anchor} is no heading of {path_text}")
    for number, token in backticked_paths(document):
        if not exists(ROOT / token):
            broken.append(f"{where}:{number}: `{token}` does not exist in the repository")
    return broken


def test_every_path_link_and_anchor_in_the_documents_exists() -> None:
    broken = [line for path in documents() for line in broken_links(Document.read(path))]
    assert not broken, "Broken links in the documentation:\n" + "\n".join(broken)


def test_the_readme_stays_short_and_keeps_its_commands() -> None:
    size = len(README.read_bytes())
    assert size <= README_LIMIT, f"README.md is {size} bytes, more than {README_LIMIT}"
    text = README.read_text(encoding="utf-8")
    assert "make run" in text and "make test" in text
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_readme_links_every_document_and_each_says_whom_it_is_for() -> None:
    linked = {target.partition("#")[0] for _, target in links(Document.read(README))}
    unlinked = [
        path.name
        for path in [*DOCS.glob("*.md"), *TOP_DOCUMENTS]
        if path.relative_to(ROOT).as_posix() not in linked
    ]
    assert not unlinked, f"README.md does not link to {unlinked}"
    for path in [*DOCS.glob("*.md"), *TOP_DOCUMENTS]:
        title, blank, audience, after = path.read_text(encoding="utf-8").splitlines()[:4]
        assert title.startswith("# ") and blank == "" and after == "", path.name
        assert audience.startswith("For "), f"{path.name} does not open with whom it is for"


def test_the_checker_finds_each_kind_of_broken_link(tmp_path: Path) -> None:
    """The checks above would pass on a checker that finds nothing: this one must not."""
    page = tmp_path / "page.md"
    page.write_text(
        "# A page\n\n## Some section, with `code`\n\n"
        "[ok](#some-section-with-code) [gone](#no-such-heading)\n"
        f"[up]({ROOT / 'Makefile'}) [missing](missing.md) ![img](nowhere.png)\n"
        '<img src="absent.png" alt="x"> [web](https://example.com/x)\n'
        f"[deep]({ROOT / 'docs' / 'hosting.md'}#backups) "
        f"[bad anchor]({ROOT / 'docs' / 'hosting.md'}#no-such-part)\n"
        "Run `bot/no_such_module.py` or `devtools/demo` beside `engine/*.py`, not `bot/<x>/`.\n"
        "Copy `.env.example` to `.env`; see `Makefile`.\n"
        "```sh\nmake run   # see migrations/none_here.sql and `tests/`\n```\n",
        encoding="utf-8",
    )
    named = {token for _, token in backticked_paths(Document.read(page))}
    assert {".env.example", "Makefile", "devtools/demo", "engine/*.py", "tests/"} <= named
    assert ".env" not in named and "bot/<x>/" not in named
    problems = "\n".join(broken_links(Document.read(page)))
    for broken in (
        "#no-such-heading",
        "missing.md",
        "nowhere.png",
        "absent.png",
        "#no-such-part",
        "bot/no_such_module.py",
        "migrations/none_here.sql",
    ):
        assert broken in problems
    for fine in ("#some-section-with-code", "Makefile", "example.com", "#backups", "devtools"):
        assert fine not in problems
    assert len(problems.splitlines()) == 7, problems
