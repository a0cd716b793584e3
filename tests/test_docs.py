"""The documentation site builds with mkdocs in strict mode (broken links, missing pages or docstring
references fail), and every docs page is in its navigation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_every_page_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    pages = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    assert [p for p in pages if p not in nav] == []


def test_mkdocs_build_strict(tmp_path):
    """As a user builds it (``mkdocs build --strict``; ``mkdocs serve`` reads the same ``strict: true``): no ``-q``,
    which hides the warnings strict mode counts, and no warning in the log either."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    out = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "WARNING" not in out.stderr, out.stderr
    assert (tmp_path / "site" / "api" / "index.html").read_text().count("TrajectoryErrors") > 0
