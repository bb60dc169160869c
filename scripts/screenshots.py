"""Screenshots of the web table for docs/: a desktop (1366×800) and a phone (390×844).

Starts `pinochle serve` on a throwaway database, makes a table in the lobby with
three computer players, plays (passing in the auction, the first legal card in
the play) until a few tricks are down and it is the person's turn again, and
saves ``docs/web-desktop.png`` and ``docs/web-phone.png``; with ``--rules
doubledeck`` the double deck's table (docs/rules.md §6, computer seats ``easy``) as
``docs/web-double-desktop.png`` and ``docs/web-double-phone.png``. Needs the ``web``
extra, Playwright and a Chromium (``--chromium``; Debian's by default):

    .venv/bin/python scripts/screenshots.py
    .venv/bin/python scripts/screenshots.py --rules doubledeck
"""

from __future__ import annotations

import argparse
import base64
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from pinochlekit.web.process import ServerProcess

DOCS = Path(__file__).resolve().parent.parent / "docs"
SIZES = {"desktop": (1366, 800), "phone": (390, 844)}
#: How much each screenshot is shrunk before it is saved (the PNGs stay small).
SCALE = {"desktop": 0.7, "phone": 1.0}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def _turn(page: Page) -> None:
    """Act once if it is the person's turn: pass, name spades, pass the first cards,
    or play the first legal card."""
    controls = page.locator("#controls")
    if page.locator("#summary[open]").count():
        page.get_by_role("button", name="Continue").click()
    elif controls.get_by_role("button", name="Pass", exact=True).count():
        controls.get_by_role("button", name="Pass", exact=True).click(timeout=3000)
    elif controls.get_by_role("group", name="Name trump").count():
        controls.get_by_role("button", name="Trump spades").click(timeout=3000)
    elif controls.get_by_role("button", name="cards", exact=False).count():
        give = controls.get_by_role("button", name="cards", exact=False)
        for i in range(int(give.inner_text(timeout=3000).split()[1])):
            page.locator("#hand button").nth(i).click(timeout=3000)
        give.click(timeout=3000)
    elif page.locator("#hand button.playable").count():
        page.locator("#hand button.playable").first.click(timeout=3000)
    else:
        page.wait_for_timeout(50)


def _shrink(page: Page, png: bytes, scale: float) -> bytes:
    """``png`` scaled by ``scale``, redrawn by the browser's own canvas."""
    if scale == 1.0:
        return png
    data = page.evaluate("""async ([b64, scale]) => {
      const image = new Image();
      image.src = "data:image/png;base64," + b64;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = Math.round(image.width * scale);
      canvas.height = Math.round(image.height * scale);
      const g = canvas.getContext("2d");
      g.imageSmoothingQuality = "high";
      g.drawImage(image, 0, 0, canvas.width, canvas.height);
      return canvas.toDataURL("image/png").split(",")[1];
    }""", [base64.b64encode(png).decode(), scale])
    return base64.b64decode(data)


#: The computer level of the other seats, and the name of the pictures, by preset.
LEVEL = {"pagat": "standard", "doubledeck": "easy"}
PREFIX = {"pagat": "web", "doubledeck": "web-double"}


def shoot(chromium: str, out: Path, tricks: int = 3, rules: str = "pagat") -> list[Path]:
    """Play to the person's turn after ``tricks`` tricks and save both screenshots."""
    with tempfile.TemporaryDirectory() as tmp, ServerProcess(str(Path(tmp) / "t.db")) as server, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
        width, height = SIZES["desktop"]
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(server.url + "/")
        page.get_by_label("Your name").fill("Ann")
        page.get_by_label("Rules").select_option(rules)
        for number in (1, 2, 3):
            page.select_option(f"#seat{number}", LEVEL[rules])
        page.get_by_text("Table settings").click()
        page.get_by_label("Seconds a computer waits before each move").fill("0.05")
        page.get_by_role("button", name="Create table").click()
        page.wait_for_url("**/t/*")
        page.wait_for_selector("#hand .card")
        deadline = time.monotonic() + 120
        while True:
            if time.monotonic() > deadline:
                raise SystemExit("the table did not reach the play in time")
            done = page.evaluate("() => document.querySelectorAll('#last-trick .played').length")
            text = page.locator("#last-trick").inner_text()
            played = int(text.split("Trick ")[1].split()[0]) if "Trick " in text and done else 0
            if played >= tricks and page.locator("#hand button.playable").count():
                break
            _turn(page)
        page.wait_for_timeout(1500)  # the held trick clears
        saved = []
        for name, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(300)
            path = out / f"{PREFIX[rules]}-{name}.png"
            path.write_bytes(_shrink(page, page.screenshot(), SCALE[name]))
            saved.append(path)
        browser.close()
    return saved


def main() -> None:
    """Command line: ``--chromium PATH``, ``--out DIR`` (docs/ by default)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=DOCS)
    parser.add_argument("--tricks", type=int, default=3)
    parser.add_argument("--rules", choices=sorted(LEVEL), default="pagat")
    args = parser.parse_args()
    for path in shoot(args.chromium, args.out, args.tricks, args.rules):
        print(path)


if __name__ == "__main__":
    main()
