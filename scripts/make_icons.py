"""Render the web app's PNG icons from their SVG sources in Chromium (run after changing one).

    python scripts/make_icons.py            # CHROMIUM=/path/to/chromium (default /usr/bin/chromium)

``web/icon.svg`` (a domino on the site's green, rounded corners) gives ``icon-192.png`` and
``icon-512.png``; ``web/icon-maskable.svg`` (full bleed, the domino inside the central circle a
launcher may cut to) gives ``icon-maskable-512.png`` and the 180 px ``apple-touch-icon.png``.
The manifest (``web/manifest.webmanifest``) names them.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

WEB = Path(__file__).resolve().parent.parent / "src" / "boneyard" / "web"
ICONS = {
    "icon-192.png": ("icon.svg", 192),
    "icon-512.png": ("icon.svg", 512),
    "icon-maskable-512.png": ("icon-maskable.svg", 512),
    "apple-touch-icon.png": ("icon-maskable.svg", 180),
}


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu"],
        )
        for out, (source, size) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (WEB / source).read_text(encoding="utf-8")
            svg = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<html><body style='margin:0'>{svg}</body></html>")
            page.screenshot(path=str(WEB / out), omit_background=True)
            page.close()
            print(out, size)
        browser.close()


if __name__ == "__main__":
    main()
