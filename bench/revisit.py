"""A page opened once and then again, in Chromium over a slow network, in one run.

    .venv/bin/python -m bench.revisit [--runs 5] [--latency 150] [--kbps 1600]

Starts one ``boneyard serve`` on 127.0.0.1 (SQLite in a temporary folder) and Debian's
Chromium, headless, with no service worker (as on a hall's plain-http network, where none can
run). For each page (the home page, a table, the tournaments page, a rules page), ``--runs``
times: a new browser profile, the network slowed to ``--latency`` ms a round trip and ``--kbps``
kilobits a second each way (Chrome's "Fast 3G" is 150 ms and 1,600 kbps down), the page opened
(the first visit) and then opened again. Prints, for each visit, the static files that came
from the server (a 304 counts: only a file from the browser's cache transfers nothing), the
bytes they took, and the medians of the times to DOMContentLoaded and to load, with the load
average. Method and figures: docs/performance.md, "Pages on the wire".
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path
from typing import Any

from bench.faults import Server

PAGES = ("/", "/table/somewhere", "/tournaments", "/rules/highfive")
CHROMIUM = "/usr/bin/chromium"
VISIT = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const files = performance.getEntriesByType("resource")
    .filter((e) => new URL(e.name).pathname.startsWith("/static/") && e.transferSize > 0);
  return { files: files.length, bytes: files.reduce((n, e) => n + e.transferSize, 0),
    ready: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
}"""


def visits(browser: Any, url: str, latency: float, kbps: float) -> list[dict[str, float]]:
    """``url`` opened in a new profile over the slowed network, then again: each visit's
    figures (:data:`VISIT`)."""
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        rate = kbps * 1000 / 8  # bytes a second
        slow = {"offline": False, "latency": latency, "downloadThroughput": rate}
        cdp.send("Network.emulateNetworkConditions", {**slow, "uploadThroughput": rate})
        found = []
        for _ in range(2):
            page.goto(url)
            page.wait_for_load_state("networkidle")
            found.append(page.evaluate(VISIT))
        return found
    finally:
        context.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--latency", type=float, default=150.0, help="ms a round trip")
    ap.add_argument("--kbps", type=float, default=1600.0, help="kilobits a second each way")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        server = Server(db=str(Path(tmp) / "site.db"))
        server.start()
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            for path in PAGES:
                url = server.base + path
                runs = [visits(browser, url, args.latency, args.kbps) for _ in range(args.runs)]
                for n, name in enumerate(("first", "again")):
                    seen = [r[n] for r in runs]
                    med = {k: statistics.median(s[k] for s in seen) for k in seen[0]}
                    print(
                        f"{path:17} {name:5}  {med['files']:3.0f} static files from the server "
                        f"{med['bytes'] / 1024:6.1f} KB  DOMContentLoaded {med['ready']:5.0f} ms  "
                        f"load {med['load']:5.0f} ms  (load average {os.getloadavg()[0]:.2f})"
                    )
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
