"""``python -m bench.pages``: the site's text served gzipped and as it is, in one short run."""

from __future__ import annotations

import re
import subprocess
import sys

from bench.faults import ROOT


def test_the_pages_bench_prints_each_way_and_gzip_takes_a_third() -> None:
    argv = [sys.executable, "-m", "bench.pages", "--seconds", "0.3", "--clients", "2"]
    out = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=180, check=True)
    rows = re.findall(r"^(gzip|identity) +([\d.]+) KB a page load on the wire", out.stdout, re.M)
    assert [way for way, _ in rows] == ["gzip", "identity", "gzip"], out.stdout
    packed, plain = float(rows[0][1]), float(rows[1][1])
    assert packed == float(rows[2][1]) and packed < plain / 2, out.stdout
