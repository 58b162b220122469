"""The load benchmark where the bot is not a member (benchmarks/load_bench.py --place group-dm):
a few games in group DMs, against the real bot in its own process, play and are measured
with no request to a channel route and no token answer refused."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parent.parent
#: A few games, briskly, measured for a few seconds; request bodies checked against
#: Discord's OpenAPI description (--validate), the engine alone left out.
QUICK = [
    *("--steps", "3", "--think", "1", "--ramp", "1", "--warmup", "1"),
    *("--duration", "4", "--grace", "3", "--chat", "0"),
    *("--recovery=", "--skip-engine", "--validate"),
]


def test_games_in_group_dms_play_through_tokens_alone(tmp_path):
    report = tmp_path / "load.txt"
    bench = [sys.executable, "benchmarks/load_bench.py", "--place", "group-dm"]
    run = subprocess.run(
        [*bench, *QUICK, "--output", str(report)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    text = report.read_text()
    assert "place: group-dm" in text
    classes = re.search(r"G=3: requests by route class: (.*) \((\d+) actions\); (.*)", text)
    assert classes is not None, text
    counts = {name: int(n) for name, n in re.findall(r"([^,]+?) (\d+)(?:, |$)", classes.group(1))}
    assert int(classes.group(2)) > 0, text  # moves were made and applied
    assert len(counts) == 8 and counts["callbacks"] > 0 and counts["@original edits"] > 0, counts
    assert counts["channel routes"] == 0 and counts["DM routes"] == 0, counts
    assert classes.group(3) == "token answers refused: none", text
    assert "violations" not in text and "error lines" not in text, text
