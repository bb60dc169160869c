"""A double-deck table (docs/rules.md §6, docs/web.md "The double deck") in a real
browser: Debian's chromium driven by Playwright against `pinochle serve` in a
subprocess. A person creates the table in the lobby (the preset ``doubledeck``, cards
passed between partners), plays a whole hand by clicking against three computers, on
a desktop (1366×800) and on a phone (390×844), and the test checks what is drawn:
20 cards, each copy marked and none covered where its rank and suit are printed, the
bid ladder, every seat's meld at the seat, the fourth card of a trick, the last trick
with who played which, the result in words, the fairness check of the 80-card deal,
and the replay of the hand."""

from __future__ import annotations

import collections
import itertools
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from pinochlekit.players import DOUBLE_LEVELS, PLAYERS
from pinochlekit.web.process import ServerProcess

from .test_browser import browser, click, read, watch_errors

__all__ = ["browser"]  # the fixture, shared with test_browser.py

SIZES = {"desktop": (1366, 800), "phone": (390, 844)}


#: The "Last trick" panel in one read: how many cards, its text, who played them.
LAST_TRICK = """() => {
  const panel = document.querySelector("#last-trick");
  if (!panel) return null;
  return {played: panel.querySelectorAll(".played").length, text: panel.innerText,
          names: [...panel.querySelectorAll(".played-by")].map((e) => e.innerText)};
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    base = tmp_path_factory.mktemp("browser-double")
    with ServerProcess(str(base / "tables.db"), log=base / "server.log",
                       extra=("--create-limit", "100000", "--max-per-address", "100000")
                       ) as srv:
        yield srv


def create_double_table(page: Page, server: ServerProcess) -> None:
    """The lobby, by clicking: the double deck, 3 cards passed, three ``easy`` seats."""
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Rules").select_option("doubledeck")
    assert "80 cards" in page.locator("#preset-source").inner_text()
    # the levels offered are those that play the double deck (players.DOUBLE_LEVELS)
    offered = page.locator("#seat1 option").all_inner_texts()
    assert offered == ["Open for a friend"] + [f"Computer: {n}" for n in DOUBLE_LEVELS
                                               if n in PLAYERS], offered
    page.get_by_text("Change any rule option").click()
    assert page.locator("#opt-bid_ladder").is_visible()  # its own options, and not
    assert page.locator("#opt-run_extra").is_hidden()  # the single deck's meld table
    page.fill("#opt-cards_passed", "3")
    for number in (1, 2, 3):
        page.select_option(f"#seat{number}", "easy")
    page.get_by_text("Table settings").click()
    page.get_by_label("Seconds a computer waits before each move").fill("0.05")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*")


def check_hand_drawn(page: Page, size: str) -> None:
    """The hand as drawn: every card inside the window, each copy named and marked, and
    on a desktop the fan leaves each card's left part (its rank and suit) uncovered;
    on a phone two rows, nothing covered, each card big enough to tap."""
    # one snapshot of the hand (the page redraws it on every change at the table)
    drawn = page.evaluate("""[...document.querySelectorAll('#hand button.card')].map((b) => {
        const r = b.getBoundingClientRect();
        return {card: b.dataset.card, copy: b.dataset.copy || null,
                label: b.getAttribute('aria-label'), x: r.x, y: r.y, width: r.width,
                height: r.height};
      })""")
    assert len(drawn) == 20
    width = SIZES[size][0]
    copies = collections.Counter(d["card"] for d in drawn)
    seen: collections.Counter[str] = collections.Counter()
    for d in drawn:
        card = d["card"]
        seen[card] += 1
        if copies[card] > 1:
            assert f"copy {seen[card]} of {copies[card]}" in d["label"], d
            assert d["copy"] == f"{seen[card]}/{copies[card]}", d
        else:
            assert "copy" not in d["label"] and d["copy"] is None, d
    boxes = drawn
    # rows: a playable card is raised a little, a card of the next row is a card lower
    rows: dict[float, list[dict[str, float]]] = {}
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
        top = next((y for y in rows if abs(y - box["y"]) < box["height"] / 2), box["y"])
        rows.setdefault(top, []).append(box)
    if size == "desktop":
        assert len(rows) == 1, rows  # one fan
        for left, right in itertools.pairwise(boxes):
            assert right["x"] - left["x"] >= 28, (left, right)  # rank and pip uncovered
    else:
        assert len(rows) <= 2, rows  # two rows of ten
        for row in rows.values():
            for left, right in itertools.pairwise(row):
                assert right["x"] >= left["x"] + left["width"] - 0.5, (left, right)
        assert all(b["width"] >= 30 and b["height"] >= 44 for b in boxes), boxes


def take_turn(page: Page) -> bool:
    """If it is Ann's turn, act by clicking: bid while the bid is at most 60, else
    pass; name spades; give or return the first cards; play the first legal card."""
    controls = page.locator("#controls")
    if page.locator("#summary[open]").count():
        return False
    bids = controls.get_by_role("button", name=re.compile(r"^Bid \d+$"))
    if bids.count():
        text = read(bids.first) or ""
        if text and int(text.split()[1]) <= 60:
            return click(bids.first)
    if controls.get_by_role("button", name="Pass", exact=True).count():
        return click(controls.get_by_role("button", name="Pass", exact=True))
    if controls.get_by_role("group", name="Name trump").count():
        return click(controls.get_by_role("button", name="Trump spades"))
    give = controls.get_by_role("button", name=re.compile(r"^(Give|Return) \d cards$"))
    if give.count():
        label = read(give)
        if label is None:
            return False
        cards = page.locator("#hand button")
        for i in range(int(label.split()[1])):
            if read(cards.nth(i), "aria-pressed") != "true" and not click(cards.nth(i)):
                return False
        return click(give)
    playable = page.locator("#hand button.playable")
    if playable.count():
        return click(playable.first)
    return False


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_double_deck_hand_by_clicking(server: ServerProcess, browser: Browser, size: str,
                                        tmp_path: Path) -> None:
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    create_double_table(page, server)
    page.wait_for_selector("#hand .card")
    assert page.locator("#hand .card").count() == 20
    assert "doubledeck(cards_passed=3)" in page.locator("#table-title").inner_text()
    check_hand_drawn(page, size)
    page.screenshot(path=str(tmp_path / f"double-{size}-deal.png"))
    hash_shown = page.locator("#fair code.hash").inner_text()
    ladder_seen = meld_seen = four_seen = False
    deadline = time.monotonic() + 240
    while not page.locator("#summary[open]").count():
        assert time.monotonic() < deadline, page.locator("#status").inner_text()
        if not ladder_seen and page.locator("#controls .bid-range").count():
            text = read(page.locator("#controls .bid-range")) or ""
            # docs/rules.md §6: by 1 below 60, then by 5 (or by 5 once the bids pass 60)
            assert "then by 5 from 60" in text or "in steps of 5" in text, text
            ladder_seen = True
        if not meld_seen and page.locator(".seat-meld").count() == 4:
            melds = page.locator(".seat-meld").all_inner_texts()
            assert all(m.startswith(("meld ", "meld: none")) for m in melds), melds
            panel = page.locator("#melds").text_content() or ""  # folded on a phone
            assert re.search(r"(run|marriage|around|pinochle)", panel), panel
            page.screenshot(path=str(tmp_path / f"double-{size}-meld.png"))
            meld_seen = True
        if not four_seen and page.locator("#trick .slot").count() == 4:
            four_seen = True  # the fourth card is drawn (docs/web.md "What a player sees")
            page.screenshot(path=str(tmp_path / f"double-{size}-trick.png"))
        # one read of the panel: it is drawn anew after every trick
        last = page.evaluate(LAST_TRICK)
        if last is not None and last["played"] == 4 and "Trick " in last["text"]:
            assert re.search(r"Trick \d+ of 20\.", last["text"]), last
            assert len(last["names"]) == 4 and "Ann" in last["names"], last
        if not take_turn(page):
            page.wait_for_timeout(30)
    assert ladder_seen and meld_seen and four_seen
    summary = page.locator("#summary")
    said = summary.inner_text()
    assert "Hand 1 is over" in said
    # (the declaring side's meld counts only when its counters save it, docs/rules.md §6)
    assert re.search(r"(made|set): (meld \d+ \+ counters \d+ = \d+|counters \d+ \(meld \d+ "
                     r"not saved: too few counters\)) [≥<] \d+", said) or \
        "thrown in" in said or "not on the board" in said, said
    assert "counters" in said
    # the hand's review is offered as at every table (docs/review.md "The double deck")
    assert "does not cover the double deck" not in said
    assert summary.get_by_role("button", name="Review this hand").count() == 1
    page.screenshot(path=str(tmp_path / f"double-{size}-summary.png"))
    page.get_by_role("button", name="Continue").click()
    fair = page.locator("#fair .fair-list li").last
    fair_text = fair.text_content() or ""  # the panel is folded on a phone
    assert "✓ verified" in fair_text and hash_shown in fair_text, fair_text
    assert "gives your cards exactly" in fair_text and "--deck double" in fair_text
    if not page.locator("#panel-history").evaluate("(d) => d.open"):
        page.locator("#panel-history summary").click()  # folded on a phone
    with page.expect_popup() as popup_info:
        page.locator("#history a").first.click()
    replay = popup_info.value
    replay.wait_for_selector(".replay-seat")
    assert replay.locator(".replay-seat").count() == 4
    first = [replay.locator(".replay-seat").nth(s).locator(".card").count() for s in range(4)]
    assert first == [20] * 4, first
    replay.get_by_role("button", name="Last step").click()
    assert "Result" in replay.locator("#result").inner_text()
    assert replay.locator(".replay-seat .card").count() == 0  # every card played
    replay.screenshot(path=str(tmp_path / f"double-{size}-replay.png"))
    replay.close()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    # the history page: each double-deck hand has its Review button
    table_id = page.url.rstrip("/").split("/t/")[1].split("?")[0]
    page.goto(f"{server.url}/history/{table_id}")
    page.wait_for_selector(".history-hands li")
    item = page.locator(".history-hands li").first.inner_text()
    assert "no review" not in item, item
    assert page.locator(".history-hands .review-open").count() >= 1
    assert not errors, errors
    page.close()


def test_a_meld_not_counted_says_why_under_each_deck(server: ServerProcess,
                                                     browser: Browser) -> None:
    """The hand summary's reason for a meld that did not count (docs/rules.md §1.11,
    §6), as the page computes it from a hand summary: in the single deck the declaring
    side's is lost with the contract, another side's is not saved for want of a
    trick point; in the double deck any side's, the declarer's too, is not saved for
    want of counters, and then the declarer's made or set line counts only its
    counters; each reason has a glossary entry that explains it."""
    page = browser.new_page()
    errors = watch_errors(page)
    page.goto(server.url + "/")
    said = page.evaluate("""async () => {
      const g = await import('/static/js/glossary.js');
      const hand = (deck, outcome) => ({deck, outcome, meld_points: [40, 30],
                                        trick_points: [15, 35], meld_saved: [false, false]});
      const why = (h, side) => { const u = g.unsavedMeld(h, side, 0);
                                 return u && [u.why, u.term, !!g.GLOSSARY[u.term]]; };
      return {single: [why(hand("single", "set"), 0), why(hand("single", "set"), 1)],
              double: [why(hand("double", "set"), 0), why(hand("double", "set"), 1),
                       why(hand("double", "made"), 0)],
              saved: why({deck: "double", outcome: "made", meld_points: [40, 30],
                          meld_saved: [true, true]}, 1),
              none: why({deck: "single", outcome: "set", meld_points: [0, 0],
                         meld_saved: [false, false]}, 1),
              lost: [-55, -15].map((score) => why({deck: "double", outcome: "set",
                                                  contract: 55, meld_points: [40, 30],
                                                  meld_saved: [true, true],
                                                  scores: [score, 70]}, 0)),
              took: [g.declarerTook(hand("single", "set"), 0),
                     g.declarerTook(hand("double", "set"), 0),
                     g.declarerTook({...hand("double", "made"), meld_saved: [true, false]}, 0),
                     g.declarerTook({...hand("double", "set"), meld_saved: [true, false]}, 0)]};
    }""")
    assert said["single"] == [["set", "set", True], ["no trick points", "(not saved)", True]]
    # the double deck: the declaring side's meld too is not saved by too few counters,
    # set or made (its set line says it took only its counters)
    assert said["double"] == [["too few counters", "(too few counters)", True]] * 3
    assert said["saved"] is None and said["none"] is None
    # saved by its counters, a set side's meld is lost with the contract (-55), unless
    # the rules keep it (set_forfeits_meld=no: its meld less the contract, -15)
    assert said["lost"] == [["set", "set", True], None]
    assert said["took"] == ["meld 40 + counters 15 = 55",
                            "counters 15 (meld 40 not saved: too few counters)",
                            "meld 40 + counters 15 = 55", "meld 40 + counters 15 = 55"]
    assert not errors
    page.close()
