"""The web table's turn timer, chat, undo and wording in a real browser (Debian's
chromium driven by Playwright, against `pinochle serve`): what is drawn is checked
(docs/web.md "Turn timer", "Chat", "Undo", "Hints")."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, Page

from pinochlekit.web.process import ServerProcess

from .test_browser import browser, click, server, take_turn, watch_errors

__all__ = ["browser", "server"]  # the fixtures, shared with test_browser.py

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}


def short_timer(page: Page, seconds: int) -> None:
    """Offer a timer shorter than the lobby's 30 s (a test cannot wait that long):
    the server takes any length from 3 to 600 s."""
    page.evaluate("(s) => { const o = document.createElement('option'); o.value = s; "
                  "o.textContent = s + ' s'; document.querySelector('#turn-time').append(o); }",
                  str(seconds))
    page.select_option("#turn-time", str(seconds))


def create_with(page: Page, server: ServerProcess, seats: list[str], *, timer: int = 0,
                spectators: str = "none", pace: str = "0.05") -> str:
    """Create a table from the lobby with the timer and the spectators' chat set."""
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Ann")
    for number, kind in enumerate(seats, 1):
        page.select_option(f"#seat{number}", kind)
    page.get_by_text("Table settings").click()
    page.get_by_label("Seconds a computer waits before each move").fill(pace)
    if timer:
        short_timer(page, timer)
    page.select_option("#spectator-chat", spectators)
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*")
    return page.url


def my_turn(page: Page, seconds: float = 60) -> None:
    """Wait until the bid box (or the trump choice) is this page's."""
    page.wait_for_selector("#controls .bidding, #controls .trump-choice", timeout=seconds * 1000)


def test_the_turn_timer_counts_down_and_the_standin_plays(server: ServerProcess,
                                                         browser: Browser) -> None:
    for size in (DESKTOP, PHONE):
        page = browser.new_page(viewport=size)  # type: ignore[arg-type]
        errors = watch_errors(page)
        create_with(page, server, ["simple", "simple", "simple"], timer=4)
        my_turn(page)
        timer = page.locator("#turn-timer")
        timer.wait_for(state="visible")
        text = timer.inner_text()
        assert re.fullmatch(r"Your turn: [1-4] s left, then standard plays for you", text), text
        assert "mine" in (timer.get_attribute("class") or "")
        page.wait_for_function("document.querySelector('#turn-timer').textContent"
                               ".match(/: [12] s left/)", timeout=5000)  # it counts down
        page.wait_for_function("document.querySelector('#last-action').textContent"
                               ".includes('time ran out')", timeout=15000)
        said = page.locator("#last-action").inner_text()
        assert said.startswith("Ann's time ran out: standard played for you: "), said
        assert page.locator("#last-action").is_visible()
        assert not errors, errors
        page.close()


def test_chat_escaped_muted_hidden_kept_and_read_by_spectators(server: ServerProcess,
                                                             browser: Browser) -> None:
    ann_context, bob_context, eve_context = (
        browser.new_context(viewport=DESKTOP) for _ in range(3))  # type: ignore[arg-type]
    ann, bob, eve = (c.new_page() for c in (ann_context, bob_context, eve_context))
    errors = watch_errors(ann) + watch_errors(bob) + watch_errors(eve)
    url = create_with(ann, server, ["simple", "open", "simple"], spectators="read", pace="0.5")
    bob.goto(url)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Sit at North").click()
    bob.wait_for_selector("#hand .card")
    ann.wait_for_selector("#hand .card")
    eve.goto(url)  # a spectator
    eve.wait_for_selector("#seat-bottom .seat-name")
    ann.get_by_label("Chat message").fill("<b>hello</b> Bob")
    ann.get_by_role("button", name="Send", exact=True).click()
    for page in (ann, bob, eve):
        page.wait_for_selector("#chat-list .chat-message")
        assert page.locator("#chat-list .chat-text").first.inner_text() == "<b>hello</b> Bob"
        assert page.locator("#chat-list b").count() == 0  # drawn as text, never as HTML
    assert not eve.locator("#chat-form").is_visible()  # spectators read, not write
    bob.get_by_role("group", name="Quick messages").get_by_role("button",
                                                                 name="Nice play").click()
    ann.wait_for_function("document.querySelector('#chat-list').textContent"
                          ".includes('Bob: Nice play')")
    # a flood is refused with a clear error
    for n in range(5):
        ann.get_by_label("Chat message").fill(f"spam {n}")
        ann.get_by_role("button", name="Send", exact=True).click()
    ann.wait_for_function("document.querySelector('#error').textContent"
                          ".includes('too many chat messages')")
    # Ann mutes Bob: his messages leave her chat, not Bob's
    ann.get_by_role("button", name="Mute Bob").click()
    ann.wait_for_function("!document.querySelector('#chat-list').textContent.includes('Nice play')")
    assert "Nice play" in bob.locator("#chat-list").inner_text()
    assert ann.get_by_role("button", name="Mute Bob").get_attribute("aria-pressed") == "true"
    # hidden on request; kept across a reload (stored with the table)
    ann.get_by_label("Hide the chat").check()
    assert not ann.locator("#panel-chat").is_visible()
    bob.reload()
    bob.wait_for_function("document.querySelector('#chat-list').textContent"
                          ".includes('<b>hello</b> Bob')")
    assert not errors, [e for e in errors if "too many chat" not in e]
    for context in (ann_context, bob_context, eve_context):
        context.close()


def test_spectators_may_write_where_the_table_allows_it(server: ServerProcess,
                                                       browser: Browser) -> None:
    """docs/web.md "Chat": with "They may read and write" a spectator's page has the
    chat form, and what it sends reaches the seated player, named "Spectator"."""
    ann_context, eve_context = (
        browser.new_context(viewport=DESKTOP) for _ in range(2))  # type: ignore[arg-type]
    ann, eve = ann_context.new_page(), eve_context.new_page()
    errors = watch_errors(ann) + watch_errors(eve)
    url = create_with(ann, server, ["simple", "simple", "simple"], spectators="write",
                      pace="0.5")
    ann.wait_for_selector("#hand .card")
    eve.goto(url)  # a spectator
    eve.wait_for_selector("#seat-bottom .seat-name")
    assert eve.locator("#chat-form").is_visible()
    eve.get_by_label("Chat message").fill("good luck")
    eve.get_by_role("button", name="Send", exact=True).click()
    ann.wait_for_function("document.querySelector('#chat-list').textContent"
                          ".includes('good luck')")
    assert "Spectator" in ann.locator("#chat-list").inner_text()
    assert not errors, errors
    for context in (ann_context, eve_context):
        context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_undo_takes_back_a_misclick_before_the_next_player_acts(server: ServerProcess,
                                                              browser: Browser, size: str) -> None:
    page = browser.new_page(viewport=DESKTOP if size == "desktop" else PHONE)  # type: ignore[arg-type]
    errors = watch_errors(page)
    create_with(page, server, ["simple", "simple", "simple"], pace="4")
    my_turn(page)
    box = page.locator("#controls .bidding")
    if box.count():
        # the bid box says the real range, not "250 to 3850"
        text = page.locator("#controls .bid-range").inner_text()
        assert re.fullmatch(r"Bid \d+ or more, in steps of \d+:", text), text
        assert "3850" not in box.inner_text()
    before = page.locator("#auction").inner_text()
    assert take_turn(page)  # a pass, or trump named
    undo = page.get_by_role("button", name=re.compile("^Undo my last move"))
    undo.wait_for(state="visible", timeout=3000)
    undo.click()
    my_turn(page, 3)  # the same decision again, before the computer acted
    assert page.locator("#auction").inner_text() == before
    assert not page.get_by_role("button", name=re.compile("^Undo")).count()
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_undo_is_refused_with_words_where_people_play(server: ServerProcess,
                                                     browser: Browser, size: str) -> None:
    """docs/web.md "Undo": at a table with a second person there is no Undo button,
    and the u key is refused in words that say why (at 1366×800 and 390×844)."""
    view = DESKTOP if size == "desktop" else PHONE
    ann_context, bob_context = (browser.new_context(viewport=view)  # type: ignore[arg-type]
                                for _ in range(2))
    ann, bob = ann_context.new_page(), bob_context.new_page()
    url = create_with(ann, server, ["simple", "open", "simple"], pace="0.5")
    bob.goto(url)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Sit at North").click()
    ann.wait_for_selector("#hand .card")
    deadline = time.monotonic() + 60
    acted = None
    while acted is None:
        assert time.monotonic() < deadline
        for page in (ann, bob):
            if take_turn(page):
                acted = page
                break
        else:
            ann.wait_for_timeout(50)
    assert not acted.get_by_role("button", name=re.compile("^Undo")).count()
    acted.locator("body").press("u")
    acted.wait_for_function("document.querySelector('#error').textContent"
                            ".includes('other seats are all computers')")
    error = acted.locator("#error")
    assert error.is_visible()
    box = error.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= view["width"]
    ann_context.close()
    bob_context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_history_scores_read_as_a_person_says_them(server: ServerProcess,
                                                   browser: Browser, size: str) -> None:
    """After a finished hand the history says "this hand: Ann & North … −50, …",
    labelled by side with a true minus, never "−50 – 60"."""
    page = browser.new_page(viewport=DESKTOP if size == "desktop" else PHONE)  # type: ignore[arg-type]
    create_with(page, server, ["simple", "simple", "simple"])
    deadline = time.monotonic() + 240
    while not page.locator("#summary[open]").count():
        assert time.monotonic() < deadline, page.locator("#status").inner_text()
        if not take_turn(page):
            page.wait_for_timeout(50)
    click(page.get_by_role("button", name="Continue"))
    page.goto(page.url.replace("/t/", "/history/"))
    page.wait_for_selector(".history-hands a")
    text = page.locator(".history-hands a").first.inner_text()
    assert re.search(r"this hand: Ann & North \(simple\) [+−]?\d+, West \(simple\) & "
                     r"East \(simple\) [+−]?\d+; totals: ", text), text
    assert " – " not in text and "-" not in text.replace("Hand 1:", ""), text
    page.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_claim_the_rest_is_checked_and_played_out_or_refused(server: ServerProcess,
                                                            browser: Browser, size: str) -> None:
    """docs/web.md "Claim": Ann bids whenever she may; once her side declares and
    the last six tricks come, *Claim the rest* shows on her turn; clicked, the hand
    is played out ("claim played out") or the claim is refused in words."""
    page = browser.new_page(viewport=DESKTOP if size == "desktop" else PHONE)  # type: ignore[arg-type]
    errors = watch_errors(page)
    create_with(page, server, ["simple", "simple", "simple"])
    claim = page.get_by_role("button", name=re.compile("^Claim the rest"))
    deadline = time.monotonic() + 240
    while not claim.count():
        assert time.monotonic() < deadline, page.locator("#status").inner_text()
        if page.locator("#summary[open]").count():
            click(page.get_by_role("button", name="Continue"))
            continue
        if page.locator("#controls").get_by_role("button", name="Rematch").count():
            click(page.locator("#controls").get_by_role("button", name="Rematch"))
            continue
        bids = page.locator("#controls .bidding button[data-action^='bid ']")
        if bids.count():
            click(bids.first)
        elif not take_turn(page):
            page.wait_for_timeout(50)
    click(claim)
    page.wait_for_function(
        "document.querySelector('#error').textContent.includes('the claim is not sure')"
        " || document.querySelector('#last-action').textContent.includes('claim played out')"
        " || !!document.querySelector('#summary[open]')", timeout=15000)
    said = page.locator("#error").inner_text()
    if said:
        assert "the hand plays on" in said, said
    assert not errors, errors
    page.close()


def test_the_folded_chat_on_a_phone_counts_new_messages(server: ServerProcess,
                                                        browser: Browser) -> None:
    """At 390×844 the chat starts folded: messages from others put a count on its
    summary ("2 new"), one's own does not, and opening the chat clears it."""
    ann_context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    bob_context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    ann, bob = ann_context.new_page(), bob_context.new_page()
    errors = watch_errors(ann) + watch_errors(bob)
    url = create_with(ann, server, ["simple", "open", "simple"], pace="0.5")
    bob.goto(url)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Sit at North").click()
    bob.wait_for_selector("#hand .card")
    ann.wait_for_selector("#hand .card")
    assert ann.locator("#panel-chat").get_attribute("open") is None  # folded on a phone
    badge = ann.locator("#chat-unread")
    assert not badge.is_visible()
    quick = bob.get_by_role("group", name="Quick messages")
    quick.get_by_role("button", name="Nice play").click()
    ann.wait_for_function("document.querySelector('#chat-unread').textContent === '1 new'")
    bob.get_by_label("Chat message").fill("your turn")
    bob.get_by_role("button", name="Send", exact=True).click()
    ann.wait_for_function("document.querySelector('#chat-unread').textContent === '2 new'")
    ann.locator("#panel-chat > summary").scroll_into_view_if_needed()
    assert badge.is_visible()
    box, summary = badge.bounding_box(), ann.locator("#panel-chat > summary").bounding_box()
    assert box and summary and box["width"] > 0 and box["height"] > 0
    assert summary["x"] <= box["x"] and box["x"] + box["width"] <= summary["x"] + \
        summary["width"] and box["x"] + box["width"] <= PHONE["width"]  # drawn whole
    assert badge.get_attribute("aria-label") == "2 new messages"
    # Ann opens the chat: the count goes, the messages are there
    ann.locator("#panel-chat > summary").click()
    ann.wait_for_function("document.querySelector('#panel-chat').open")
    badge.wait_for(state="hidden", timeout=5000)  # cleared by the toggle event, just after
    assert "Bob: Nice play" in ann.locator("#chat-list").inner_text()
    assert "Bob: your turn" in ann.locator("#chat-list").inner_text()
    # Ann answers with the chat open; Bob's open chat on the desktop counts nothing
    ann.get_by_label("Chat message").fill("coming")
    ann.get_by_role("button", name="Send", exact=True).click()
    bob.wait_for_function("document.querySelector('#chat-list').textContent"
                          ".includes('Ann: coming')")
    assert not bob.locator("#chat-unread").is_visible()
    # folded again, the count starts from nothing
    ann.locator("#panel-chat > summary").click()
    ann.wait_for_function("!document.querySelector('#panel-chat').open")
    assert not badge.is_visible()
    quick.get_by_role("button", name="Thanks").click()
    ann.wait_for_function("document.querySelector('#chat-unread').textContent === '1 new'")
    assert badge.is_visible()
    assert not errors, errors
    for context in (ann_context, bob_context):
        context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_chat_is_shown_in_the_tables_history(server: ServerProcess, browser: Browser,
                                                size: str) -> None:
    """docs/web.md "Chat": the chat is kept with the table and shown on its history
    page, drawn as text, where spectators may read it; where only the seated may, the
    public history page has no chat at all."""
    view = DESKTOP if size == "desktop" else PHONE
    page = browser.new_page(viewport=view)  # type: ignore[arg-type]
    errors = watch_errors(page)
    for spectators in ("read", "none"):
        url = create_with(page, server, ["simple", "simple", "simple"],
                          spectators=spectators, pace="0.5")
        page.wait_for_selector("#hand .card")
        if page.locator("#panel-chat").get_attribute("open") is None:
            page.locator("#panel-chat summary").click()  # folded on a phone
        page.get_by_label("Chat message").fill("<i>good</i> game")
        page.get_by_role("button", name="Send", exact=True).click()
        page.get_by_role("group", name="Quick messages").get_by_role(
            "button", name="Nice play").click()
        page.wait_for_function("document.querySelectorAll('#chat-list .chat-message')"
                               ".length === 2")
        page.goto(url.replace("/t/", "/history/"))
        page.wait_for_selector(".history-game h2")  # drawn at once with any chat
        chat = page.locator(".history-chat")
        if spectators == "none":
            assert chat.count() == 0
            continue
        lines = chat.locator(".chat-message").all_inner_texts()
        assert lines == ["Ann: <i>good</i> game", "Ann: Nice play"], lines
        assert chat.locator("i").count() == 0  # text, never HTML
        box = chat.bounding_box()
        assert box is not None and box["x"] + box["width"] <= view["width"]
    assert not errors, errors
    page.close()
