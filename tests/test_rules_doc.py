"""The code cites the rules by sections of docs/rules.md, and every cited section exists.

A citation reads ``docs/rules.md §N`` or ``docs/rules.md §N.M``; a section is a heading
of docs/rules.md that starts with its number (``## §1 The default game...``,
``### §1.4 Auction``). The comments and docstrings of ``src/``, ``tests/`` and ``bench/``
cite rules and documents, never the
project's tracker: a sentence such as "issue 7" means nothing to a reader of the code.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"

CITATION = re.compile(r"docs/rules\.md §(\d+(?:\.\d+)*)")
HEADING = re.compile(r"^#{2,4} §(\d+(?:\.\d+)*) ", re.MULTILINE)
TRACKER = re.compile(r"\b[Ii]ssues? #?\d+|\(#\d+\)")

#: The text files of the package and the tests (sources, stubs, C, web assets).
SUFFIXES = {".py", ".pyi", ".c", ".h", ".js", ".css", ".html", ".md"}


def _files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*")
                  if p.is_file() and p.suffix in SUFFIXES and "vendor" not in p.parts)


def sections() -> set[str]:
    """The section numbers docs/rules.md has as headings."""
    return set(HEADING.findall(RULES.read_text(encoding="utf-8")))


def test_the_rules_have_sections_one_to_six() -> None:
    found = sections()
    assert {"1", "2", "3", "4", "5", "6"} <= found
    # A subsection is numbered inside an existing section.
    assert all(number.split(".")[0] in found for number in found)


def test_every_cited_section_exists() -> None:
    found = sections()
    cited: dict[str, list[str]] = {}
    for path in _files("src", "tests"):
        for number, line in _citations(path.read_text(encoding="utf-8", errors="replace")):
            cited.setdefault(number, []).append(f"{path.relative_to(ROOT)}:{line}")
    assert len(cited) >= 5, "the code cites the rules: the search must find it"
    missing = {n: places for n, places in cited.items() if n not in found}
    assert not missing, "\n".join(f"§{n} (no such heading in docs/rules.md): {places[:5]}"
                                  for n, places in sorted(missing.items()))


def _citations(text: str) -> list[tuple[str, int]]:
    return [(m.group(1).rstrip("."), text.count("\n", 0, m.start()) + 1)
            for m in CITATION.finditer(text)]


def test_citation_search_reads_subsections() -> None:
    assert _citations("see docs/rules.md §1.4.\nand docs/rules.md §3") == [("1.4", 1), ("3", 2)]


def test_no_tracker_issue_numbers_in_the_code() -> None:
    """The package, the tests and the benchmarks cite documents, not the tracker (this
    file's own examples excepted)."""
    here = Path(__file__).resolve()
    cited = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in [*_files("src", "tests", "bench"),
                          *(ROOT / "bench").glob("*.sh")] if path != here
             for number, line in enumerate(path.read_text(encoding="utf-8",
                                                          errors="replace").splitlines(), 1)
             if TRACKER.search(line)]
    assert not cited, "\n".join(cited)


def test_tracker_pattern() -> None:
    assert TRACKER.search("the table's hot path (issue 2)")
    assert TRACKER.search("see Issue #15") and TRACKER.search("fixed (#12)")
    assert not TRACKER.search("the issue is the widow") and not TRACKER.search("§2 #3")
