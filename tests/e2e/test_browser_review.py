"""The review panel in a real browser (docs/web.md "Review"): a hand is played to its
end at a table of one person and three computers; at desktop width the hand's summary
offers "Review this hand", the panel shows its progress, then steps through every
decision with its mark and the chosen card (and the better play) drawn highlighted on
the cards; at phone width the same review opens from the history page, from the
server's cache, and fits the screen, and the person's statistics page draws its plots."""

from __future__ import annotations

import json
import re
import time
from functools import partial
from typing import Any

from playwright.sync_api import Browser, Page, expect
from web_helpers import Client, choose, join, new_table, request

from pinochlekit.web.process import ServerProcess

from .test_browser import browser, server, watch_errors

__all__ = ["browser", "server"]  # the fixtures, shared with test_browser.py

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def seated_page(browser: Browser, server: ServerProcess, table: str, token: str,
                size: dict[str, int]) -> tuple[Page, list[str]]:
    """A page of ``size`` holding seat 0's token (as the lobby stores it)."""
    page = browser.new_page(viewport={"width": size["width"], "height": size["height"]})
    errors = watch_errors(page)
    page.goto(server.url + "/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"pinochle.token.{table}", json.dumps({"token": token, "seat": 0})])
    return page, errors


def finished(hands: int, message: dict[str, Any]) -> bool:
    """Whether ``message`` is a state with at least ``hands`` finished hands."""
    return message["type"] == "state" and len(message["hands"]) >= hands


def wait_review(url: str) -> dict[str, Any]:
    """Seat 0's review at ``url``, asked for until it is done."""
    deadline = time.monotonic() + 300
    while True:
        try:
            status, body = request("POST", url, {"seat": 0})
        except TimeoutError:  # a loaded machine answered late: ask again until the deadline
            assert time.monotonic() < deadline, "no answer to the review request"
            continue
        if status == 200:
            return dict(body["review"])
        assert status == 202 and time.monotonic() < deadline, body
        time.sleep(0.3)


def check_panel(page: Page, review: dict[str, Any], width: int) -> None:
    """Step through every decision from the first; what is drawn is the review's."""
    decisions = review["decisions"]
    total = len(decisions)
    status = page.locator("#review-status")
    expect(status).to_have_text(re.compile(rf"Decision \d+ of {total}$"), timeout=300_000)
    box = page.locator("#review").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, box
    page.locator(".review-list button").first.click()
    highlighted = 0
    for index, decision in enumerate(decisions):
        expect(status).to_have_text(f"Decision {index + 1} of {total}")
        expect(page.locator("#review-mark")).to_have_text(decision["mark"] or "✓")
        hand = decision["board"]["hand"].split()
        chosen = page.locator(".review-hand .card.review-chosen")
        best = page.locator(".review-hand .card.review-best")
        if decision["trick"]:  # a card played: that card is drawn as the one chosen
            expect(chosen).to_have_count(1)
            assert chosen.get_attribute("data-card") == decision["chosen"]
            highlighted += 1
            if decision["best"] != decision["chosen"] and decision["best"] in hand:
                expect(best).to_have_count(1)
                assert best.get_attribute("data-card") == decision["best"]
            else:
                expect(best).to_have_count(0)
        if index + 1 < total:
            page.get_by_role("button", name="Next ▶").click()
    assert highlighted, "no card play among the decisions: nothing drawn was checked"
    expect(page.get_by_role("button", name="Next ▶")).to_be_disabled()
    page.locator("#review").press("ArrowLeft")
    expect(status).to_have_text(f"Decision {total - 1} of {total}")


def check_progress(page: Page) -> None:
    """Another seat's decisions (not reviewed yet): while the server reviews them the
    panel draws a progress bar and "Reviewing" in its status; when done, the bar goes
    and the first decision is drawn. Every status drawn is recorded by an observer, so
    a quick review cannot slip past the check."""
    page.evaluate("""() => {
      window.reviewSeen = [];
      const status = document.getElementById("review-status");
      const bar = document.getElementById("review-progress");
      const note = () => window.reviewSeen.push({text: status.textContent,
        bar: !bar.hidden && bar.getBoundingClientRect().width > 0,
        value: bar.value, max: bar.max});
      new MutationObserver(note).observe(status, {childList: true, characterData: true,
                                                  subtree: true});
      new MutationObserver(note).observe(bar, {attributes: true});
    }""")
    page.locator("#review-seat").select_option("1")
    # the old seat's "Decision i of n" stays until the server answers: wait for a
    # "Decision" drawn after a "Reviewing"
    page.wait_for_function("""() => {
      const seen = window.reviewSeen;
      const first = seen.findIndex((s) => s.text.startsWith("Reviewing"));
      return first >= 0 && seen.slice(first).some((s) => s.text.startsWith("Decision"));
    }""", timeout=300_000)
    expect(page.locator("#review-status")).to_have_text(re.compile(r"Decision \d+ of \d+$"))
    expect(page.locator("#review-progress")).to_be_hidden()
    expect(page.locator("#review-seat")).to_have_value("1")
    seen = page.evaluate("window.reviewSeen")
    running = [s for s in seen if s["text"].startswith("Reviewing")]
    assert running and all(s["bar"] for s in running), seen
    assert all(0 <= s["value"] <= s["max"] for s in running), seen


def test_review_panel_after_the_hand_and_in_the_history(server: ServerProcess,
                                                        browser: Browser) -> None:
    table = new_table(server, "pagat", ["open", "easy", "easy", "easy"], pace=0.05)
    token = join(server, table, 0, "Ann")
    desk, desk_errors = seated_page(browser, server, table, token, DESKTOP)
    desk.goto(f"{server.url}/t/{table}")
    expect(desk.locator("#hand .card").first).to_be_visible(timeout=30_000)
    ann = Client(server, table, token)  # Ann's moves, sent from a second connection
    url = f"{server.url}/api/tables/{table}/games/0/hands/{{}}/review"
    try:
        state = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None)
        if ann.my_move(state):
            ann.act(choose(state))
        # hands until one where Ann played a card with a choice (a hand may be thrown
        # in or passed out): the cards drawn are then checked; its review is cached
        for hand in range(1, 6):
            ann.wait(partial(finished, hand), timeout=180, play=True)
            review = wait_review(url.format(hand))
            if any(d["trick"] for d in review["decisions"]):
                break
            assert ann.state is not None
            if ann.my_move(ann.state):
                ann.act(choose(ann.state))
        else:
            raise AssertionError("five hands without a card chosen by Ann")
    finally:
        ann.close()
    # the hand's summary: "Review this hand" opens the panel
    summary = desk.locator("#summary")
    for _ in range(hand):
        expect(summary).to_be_visible(timeout=30_000)
        if desk.locator("#summary-title").inner_text() == f"Hand {hand} is over":
            break
        desk.locator("#summary-close").click()
    expect(desk.locator("#summary-title")).to_have_text(f"Hand {hand} is over")
    summary.get_by_role("button", name="Review this hand").click()
    panel = desk.locator("#review")
    expect(panel).to_be_visible()
    expect(desk.locator("#review-title")).to_have_text(f"Review of hand {hand}")
    expect(desk.locator("#review-seat")).to_have_value("0", timeout=30_000)
    check_panel(desk, review, DESKTOP["width"])
    desk.get_by_role("button", name="Close").click()
    expect(panel).to_be_hidden()
    assert not desk_errors, desk_errors
    desk.close()
    # at phone width, from the history page: the cached review, drawn the same
    phone, phone_errors = seated_page(browser, server, table, token, PHONE)
    phone.goto(f"{server.url}/history/{table}")
    phone.get_by_role("button", name=f"Review game 1, hand {hand}").click()
    check_panel(phone, review, PHONE["width"])
    check_progress(phone)
    # Ann's statistics page: the plots drawn (one game, three phases, one opponent level)
    phone.goto(f"{server.url}/stats?name=Ann")
    hands = f"{hand} hand" + "s" * (hand > 1)
    expect(phone.locator("#stats h2")).to_have_text(f"Ann: {hands}", timeout=300_000)
    plots = phone.locator("svg.stats-plot")
    expect(plots).to_have_count(3)
    expect(plots.nth(0).locator("circle.point")).to_have_count(1)  # one game
    expect(plots.nth(1).locator("rect.bar")).to_have_count(3)
    expect(plots.nth(2).locator("rect.bar")).to_have_count(1)
    for i in range(3):
        box = plots.nth(i).bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"] + 1, box
    assert not phone_errors, phone_errors
    phone.close()
