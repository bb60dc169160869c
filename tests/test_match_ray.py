"""Matches beyond one process: Ray tasks give the per-deal results of ``--workers``, and
a match kept in a ``--resume`` folder, interrupted and started again, plays only the
missing deal pairs and ends with the results of one uninterrupted run."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pinochlekit.match import MatchError, run_match

MATCH = [sys.executable, "-m", "pinochlekit", "match"]


def test_a_match_on_a_local_ray_with_two_workers_equals_one_worker() -> None:
    assert importlib.util.find_spec("ray"), "the ray extra is needed: .ci/run installs it"
    one = run_match("simple", "random", deals=8, games=1, seed=3, workers=1)
    on_ray = run_match("simple", "random", deals=8, games=1, seed=3, workers=2, ray="local")
    assert on_ray.to_dict(timing=False) == one.to_dict(timing=False)
    assert [p.value for p in on_ray.deals] == [p.value for p in one.deals]
    assert on_ray.workers == 2


def test_an_external_program_plays_inside_the_ray_tasks() -> None:
    """A ``cmd:`` player is started inside each Ray task (docs/protocol.md): the
    per-deal results equal those of one local worker, and the program really played
    (a random bot against ``simple`` does not tie every deal)."""
    assert importlib.util.find_spec("ray"), "the ray extra is needed: .ci/run installs it"
    bot = f"cmd:{sys.executable} {Path(__file__).parent.parent / 'examples' / 'random_bot.py'}"
    one = run_match("simple", bot, deals=4, games=1, seed=9, workers=1)
    on_ray = run_match("simple", bot, deals=4, games=1, seed=9, workers=2, ray="local")
    assert [p.value for p in on_ray.deals] == [p.value for p in one.deals]
    assert on_ray.to_dict(timing=False) == one.to_dict(timing=False)
    assert any(p.value != 0 for p in one.deals)


def test_a_resumed_match_plays_only_the_missing_pairs(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    whole = run_match("simple", "random", deals=12, seed=5, workers=1)
    first = run_match("simple", "random", deals=12, seed=5, workers=1, resume=folder)
    assert first.to_dict(timing=False) == whole.to_dict(timing=False)
    files = sorted(folder.glob("pairs-deal-*.json"))
    assert len(files) == 12  # one pair per unit with one worker and 12 pairs
    for file in files[3:7]:  # as if the match had stopped before these
        file.unlink()
    calls: list[tuple[int, int]] = []
    again = run_match("simple", "random", deals=12, seed=5, workers=1, resume=folder,
                      progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (8, 12) and calls[-1] == (12, 12) and len(calls) == 5
    assert again.to_dict(timing=False) == whole.to_dict(timing=False)


def test_a_resume_folder_of_another_match_or_a_bad_file_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    run_match("simple", "random", deals=2, seed=5, workers=1, resume=folder)
    with pytest.raises(MatchError, match="holds another match"):
        run_match("simple", "random", deals=2, seed=6, workers=1, resume=folder)
    with pytest.raises(MatchError, match="needs a --seed"):
        run_match("simple", "random", deals=2, workers=1, resume=folder)
    next(folder.glob("pairs-deal-*.json")).write_text("{not json", encoding="utf-8")
    with pytest.raises(MatchError, match=r"cannot be read .*remove it"):
        run_match("simple", "random", deals=2, seed=5, workers=1, resume=folder)


def test_a_match_killed_and_started_again_ends_as_one_run(tmp_path: Path) -> None:
    """The command line, killed with SIGKILL once some pairs are kept, then run again
    with the same arguments: the JSON equals an uninterrupted run's (timing aside)."""
    folder = tmp_path / "run"
    args = ["standard", "easy", "--deals", "30", "--seed", "4", "--workers", "1",
            "--json", "--quiet"]
    process = subprocess.Popen([*MATCH, *args, "--resume", str(folder)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list(folder.glob("pairs-*.json"))) < 3:
        assert process.poll() is None, "the match ended before it could be interrupted"
        assert time.monotonic() < deadline
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    kept = len(list(folder.glob("pairs-*.json")))
    assert 3 <= kept < 30
    resumed = subprocess.run([*MATCH, *args, "--resume", str(folder)], capture_output=True,
                             text=True, timeout=300, check=True)
    whole = subprocess.run([*MATCH, *args], capture_output=True, text=True, timeout=300,
                           check=True)

    def settled(text: str) -> dict[str, object]:
        data = json.loads(text)
        for key in ("timing",):
            data.pop(key, None)
        return dict(data)

    assert settled(resumed.stdout) == settled(whole.stdout)


def test_without_ray_the_option_says_how_to_install_it(tmp_path: Path) -> None:
    blocked = tmp_path / "no-ray"
    (blocked / "ray").mkdir(parents=True)
    (blocked / "ray" / "__init__.py").write_text('raise ImportError("no ray here")\n')
    env = {**os.environ, "PYTHONPATH": str(blocked)}
    run = subprocess.run([*MATCH, "simple", "random", "--deals", "1", "--ray"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 2
    assert "pip install 'pinochlekit[ray]'" in run.stderr, run.stderr
