"""``scripts/setup.sh`` (run by ``play.sh`` and ``.ci/run``): it installs once, skips
the install while nothing it depends on changes, and shows a few lines of progress
instead of pip's output (docs/terminal.md "Starting").

The script runs in a copy of the project's layout whose ``.venv/bin/python`` is a
stand-in that records its calls and prints screens of output like pip, so no real
install happens.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FAKE_PYTHON = """#!/usr/bin/env bash
if [ "$1" = "-c" ]; then echo "3.x fake"; exit 0; fi
echo "$*" >> "$(dirname "$0")/calls"
for i in $(seq 1 200); do echo "Collecting something-$i"; done
exit ${FAKE_PIP_RC:-0}
"""


def _project(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts" / "setup.sh")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "setup.py").write_text("# setup\n")
    (tmp_path / "src" / "pinochlekit" / "native").mkdir(parents=True)
    (tmp_path / "src" / "pinochlekit" / "native" / "_core.c").write_text("int x;\n")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    return tmp_path


def _setup(project: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(project / "scripts" / "setup.sh")], text=True,
                          capture_output=True, env={**os.environ, **env}, check=False)


def _installs(project: Path) -> int:
    calls = project / ".venv" / "bin" / "calls"
    return len(calls.read_text().splitlines()) if calls.exists() else 0


def test_setup_installs_once_then_skips_until_a_source_changes(tmp_path: Path) -> None:
    project = _project(tmp_path)
    first = _setup(project)
    assert first.returncode == 0, first.stderr
    assert _installs(project) == 1
    assert len(first.stdout.splitlines()) <= 3  # progress, not pip's 200 lines
    assert "Collecting" not in first.stdout + first.stderr
    again = _setup(project)
    assert again.returncode == 0 and again.stdout == "" and _installs(project) == 1
    (project / "src" / "pinochlekit" / "native" / "_core.c").write_text("int y;\n")
    _setup(project)
    assert _installs(project) == 2  # a C source changed: built again
    (project / "pyproject.toml").write_text("[project]\nname = 'y'\n")
    _setup(project)
    assert _installs(project) == 3
    _setup(project, PINOCHLEKIT_SETUP="force")
    assert _installs(project) == 4


def test_a_failed_install_shows_the_log_end_and_is_tried_again(tmp_path: Path) -> None:
    project = _project(tmp_path)
    failed = _setup(project, FAKE_PIP_RC="1")
    assert failed.returncode == 1
    assert "Collecting something-200" in failed.stderr
    assert "Collecting something-1\n" not in failed.stderr  # only the end
    assert _setup(project).returncode == 0
    assert _installs(project) == 2  # no stamp was left by the failure
