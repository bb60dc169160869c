"""The web table in a real browser: Debian's chromium driven by Playwright, against
`pinochle serve` in a subprocess. A person clicks through a whole hand against three
computer players; two browsers at one table see each other's actions; a reload in the
middle of a hand gives the seat back."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, Route, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from websockets.sync.client import connect

from pinochlekit.web.process import ServerProcess

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    base = tmp_path_factory.mktemp("browser")
    with ServerProcess(str(base / "tables.db"), log=base / "server.log") as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), "Debian's chromium is needed: .ci/run installs it"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def create_table(page: Page, server: ServerProcess, name: str, seats: list[str],
                 preset: str = "pagat", options: dict[str, str] | None = None) -> str:
    """Create a table from the lobby by clicking; returns the table page's address."""
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Rules").select_option(preset)
    if options:
        page.get_by_text("Change any rule option").click()
        for option, value in options.items():
            page.fill(f"#opt-{option}", value)
    for number, kind in enumerate(seats, 1):
        page.select_option(f"#seat{number}", kind)
    page.get_by_text("Table settings").click()
    page.get_by_label("Seconds a computer waits before each move").fill("0.05")
    page.get_by_role("button", name="Create table").click()
    try:
        page.wait_for_url("**/t/*")
    except PlaywrightTimeoutError as error:  # say what the lobby said, not only "timeout"
        said = page.locator("#create-error").text_content()
        raise AssertionError(f"no table page; the lobby says {said!r}") from error
    return page.url


def click(target: Locator) -> bool:
    """Click as a person would; False if the control went away meanwhile (the page
    redraws on every change at the table), so the caller looks again."""
    try:
        target.click(timeout=3000)
    except PlaywrightTimeoutError:
        return False
    return True


def read(target: Locator, attribute: str | None = None) -> str | None:
    """The target's ``attribute`` (its text without one), or None if the control went
    away meanwhile: a check such as ``count()`` may see the controls an instant before
    the page redraws them, and a plain read would then wait 30 s for them in vain."""
    try:
        if attribute is None:
            return target.inner_text(timeout=3000)
        return target.get_attribute(attribute, timeout=3000)
    except PlaywrightTimeoutError:
        return None


def take_turn(page: Page, play: bool = True) -> bool:
    """If it is this page's turn, act by clicking as a person would; True if it did
    (with ``play=False``, never play a card)."""
    controls = page.locator("#controls")
    if page.locator("#summary[open]").count():
        return False
    if controls.get_by_role("button", name="Pass", exact=True).count():
        return click(controls.get_by_role("button", name="Pass", exact=True))
    if controls.get_by_role("group", name="Name trump").count():
        return click(controls.get_by_role("button", name="Trump spades"))
    give = controls.get_by_role("button", name="cards", exact=False)
    if give.count():
        label = read(give)
        if label is None:
            return False
        n = int(label.split()[1])
        cards = page.locator("#hand button")
        for i in range(n):
            if read(cards.nth(i), "aria-pressed") != "true" and not click(cards.nth(i)):
                return False
        return click(give)
    playable = page.locator("#hand button.playable")
    if play and playable.count():
        return click(playable.first)
    return False


def test_one_person_plays_a_whole_hand_by_clicking(server: ServerProcess,
                                                    browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = watch_errors(page)
    create_table(page, server, "Ann", ["simple", "simple", "simple"])
    page.wait_for_selector("#hand .card")
    assert page.locator("#hand .card").count() == 12
    hash_shown = page.locator("#fair code.hash").inner_text()
    assert len(hash_shown) == 64
    deadline = time.monotonic() + 120
    while not page.locator("#summary[open]").count():
        assert time.monotonic() < deadline, page.locator("#status").inner_text()
        if not take_turn(page):
            page.wait_for_timeout(50)
    summary = page.locator("#summary")
    assert "Hand 1 is over" in summary.inner_text()
    assert "Total" in summary.inner_text()
    page.get_by_role("button", name="Continue").click()
    assert page.locator("#scores tr").count() >= 3  # head, hand 1, total
    fair = page.locator("#fair .fair-list li").first
    assert "✓ verified" in fair.inner_text() and hash_shown in fair.inner_text()
    assert "gives your cards exactly" in fair.inner_text()
    with page.expect_popup() as popup_info:
        page.locator("#history a").first.click()
    replay = popup_info.value
    replay.wait_for_selector(".replay-seat")
    assert replay.locator(".replay-seat").count() == 4
    replay.get_by_role("button", name="Last step").click()
    assert "Result" in replay.locator("#result").inner_text()
    replay.close()
    # the history view lists every game of the table and opens the same replays
    page.get_by_role("link", name="History of every game at this table").click()
    page.wait_for_selector(".history-game a")
    assert page.locator(".history-game h2").first.inner_text().startswith("Game 1")
    page.get_by_role("link", name=re.compile(r"^Replay game 1, hand 1\b")).click()
    page.wait_for_selector(".replay-seat")
    assert "/replay/" in page.url and page.locator(".replay-seat").count() == 4
    page.get_by_role("button", name="Last step").click()
    assert "Result" in page.locator("#result").inner_text()
    assert not errors, errors
    page.close()


def test_two_browsers_at_one_table_see_each_other(server: ServerProcess,
                                                   browser: Browser) -> None:
    ann_context, bob_context = browser.new_context(), browser.new_context()
    ann, bob = ann_context.new_page(), bob_context.new_page()
    errors = watch_errors(ann) + watch_errors(bob)
    url = create_table(ann, server, "Ann", ["simple", "open", "simple"], preset="modern",
                       options={"min_bid": "200"})
    ann.wait_for_selector("#controls >> text=Fill empty seats")
    assert "modern(min_bid=200)" in ann.locator("#table-title").inner_text()
    bob.goto(url)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Sit at North").click()
    bob.wait_for_selector("#hand .card")
    ann.wait_for_selector("#hand .card")
    assert "Bob" in ann.locator("#seat-top").inner_text()
    assert "Ann" in bob.locator("#seat-top").inner_text()  # partners sit opposite
    # Whoever's turn it is acts; the other browser sees the call.
    deadline = time.monotonic() + 60
    acted_by = None
    while acted_by is None:
        assert time.monotonic() < deadline
        for page, name in ((ann, "Ann"), (bob, "Bob")):
            button = page.locator("#controls").get_by_role("button", name="Pass", exact=True)
            if button.count() and click(button):
                acted_by = (page, name)
                break
        else:
            ann.wait_for_timeout(50)
    other = bob if acted_by[0] is ann else ann
    other.wait_for_function(
        "(who) => document.querySelector('#auction').textContent.includes(who + ': pass')",
        arg=acted_by[1])
    assert not errors, errors
    ann_context.close()
    bob_context.close()


def test_a_reload_in_the_middle_of_a_hand_keeps_the_seat(server: ServerProcess,
                                                         browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    errors = watch_errors(page)
    create_table(page, server, "Cleo", ["simple", "simple", "simple"])
    page.wait_for_selector("#hand .card")
    deadline = time.monotonic() + 60
    while not page.locator("#hand button.playable").count():
        assert time.monotonic() < deadline
        if page.locator("#summary[open]").count():
            page.get_by_role("button", name="Continue").click()
        if not take_turn(page, play=False):
            page.wait_for_timeout(50)
    # it is this seat's turn to play a card: nothing moves until it plays
    before = page.locator("#hand").inner_text()
    status = page.locator("#status").inner_text()
    page.reload()
    page.wait_for_selector("#hand button.playable")
    assert page.locator("#hand").inner_text() == before
    assert "Cleo" in page.locator("#seat-bottom").inner_text()
    assert "(you" in page.locator("#seat-bottom").inner_text()
    assert page.locator("#status").inner_text() == status
    assert page.locator("#join").is_hidden()
    # the table fits a phone's width
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    # every control has a name a screen reader can say
    unnamed = page.evaluate("""[...document.querySelectorAll('button, input, select, a')]
        .filter((e) => !e.hidden && e.offsetParent !== null)
        .filter((e) => !(e.getAttribute('aria-label') || e.textContent.trim()
                         || (e.labels && e.labels.length)))
        .map((e) => e.outerHTML)""")
    assert unnamed == []
    label = page.locator("#hand button.playable").first.get_attribute("aria-label")
    assert label is not None and label.startswith("Play ")
    # play a card with the keyboard: focus the hand, move with the arrow keys, press Enter
    cards_before = page.locator("#hand button").count()
    page.locator("#hand button.playable").first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('#hand button').length < {cards_before}")
    assert not errors, errors
    page.close()


def test_a_missing_table_is_not_reconnected_forever(server: ServerProcess,
                                                    browser: Browser) -> None:
    page = browser.new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(server.url + "/t/nosuchtable")
    page.get_by_text("There is no such table").wait_for(timeout=10_000)
    time.sleep(5)  # a reconnect would come after 1 s, then 2 s, then 4 s
    assert len(sockets) == 1, sockets
    assert "reconnecting" not in page.inner_text("body")
    page.close()


def test_a_busy_table_is_tried_again_until_there_is_room(tmp_path: Path,
                                                         browser: Browser) -> None:
    # docs/web.md "Security and limits": close 1013 means "not now", never "never"
    with ServerProcess(str(tmp_path / "tables.db"), log=tmp_path / "server.log",
                       extra=("--max-spectators", "1")) as srv:
        made = urllib.request.Request(
            srv.url + "/api/tables", method="POST", headers={"Content-Type": "application/json"},
            data=json.dumps({"seats": ["open", "simple", "simple", "simple"]}).encode())
        with urllib.request.urlopen(made, timeout=10) as answer:
            table = json.load(answer)["id"]
        page = browser.new_page()
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        with connect(f"{srv.ws_url}/ws/{table}", open_timeout=10) as crowd:
            crowd.send(json.dumps({"type": "hello"}))
            crowd.recv(10)  # welcome: the one spectator allowed
            page.goto(f"{srv.url}/t/{table}")
            page.get_by_text("The table is busy").wait_for(timeout=10_000)
        deadline = time.monotonic() + 15
        while page.inner_text("#connection").strip() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not page.inner_text("#connection").strip() and len(sockets) >= 2, sockets
        page.locator(".seat-name").first.wait_for(timeout=10_000)  # a state drawn
        page.close()


def set_options(page: Page, options: dict[str, str]) -> None:
    """Change rule options in the lobby's "Change any rule option" box."""
    page.get_by_text("Change any rule option").click()
    for option, value in options.items():
        field = page.locator(f"#opt-{option}")
        if field.evaluate("(e) => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def test_three_handed_with_the_widow_taken_by_clicking(server: ServerProcess,
                                                      browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = watch_errors(page)
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Rules").select_option("three")
    # the seat list follows the preset: three seats, no partner, the levels of that game
    assert page.locator(".seat-kind").count() == 2
    assert "expert" in page.locator("#seat1").inner_text()
    page.get_by_label("Rules").select_option("two")
    page.wait_for_function("document.querySelectorAll('.seat-kind').length === 1")
    assert "skilled" not in page.locator("#seat1").inner_text()  # plays two as standard
    page.get_by_label("Rules").select_option("three")
    page.wait_for_function("document.querySelectorAll('.seat-kind').length === 2")
    set_options(page, {"widow": "take", "target": "5000"})  # no game over before Ann declares
    page.select_option("#seat1", "easy")
    page.select_option("#seat2", "easy")
    page.get_by_text("Table settings").click()
    page.get_by_label("Seconds a computer waits before each move").fill("0.05")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    assert "three(widow=take, target=5000)" in page.locator("#table-title").inner_text()
    assert page.locator("#hand .card").count() == 15
    assert page.locator("#table-center .widow").count() == 0  # face down until the auction
    controls = page.locator("#controls")
    saw_widow = discarded = False
    deadline = time.monotonic() + 300
    while not (discarded and page.locator("#summary[open]").count()):
        assert time.monotonic() < deadline, page.locator("#status").inner_text()
        if page.locator("#summary[open]").count():  # a computer declared: the next hand
            page.get_by_role("button", name="Continue").click()
        if page.locator("#table-center .widow .card").count() == 3:
            saw_widow = True
        bids = controls.get_by_role("button", name=re.compile(r"^Bid \d+$"))
        discard = controls.get_by_role("button", name="Discard 3 cards")
        try:  # the controls are redrawn on every change: read them once, quickly
            lowest = int(bids.first.inner_text(timeout=1000).split()[1]) if bids.count() else 0
        except PlaywrightTimeoutError:
            continue
        if bids.count() and lowest <= 400:  # Ann bids the lowest bid, to declare
            acted = click(bids.first)
        elif discard.count():
            cards = page.locator("#hand button")
            for i in range(3):
                if read(cards.nth(i), "aria-pressed") != "true":
                    click(cards.nth(i))
            acted = click(discard)
            if acted:
                # the discards stay in view for the declarer alone; a contract out of
                # reach ends the hand at once ("not on the board"), and the summary
                # then names the discards
                page.wait_for_selector("#table-center .discards .card, #summary[open]")
                discarded = True
                assert (page.locator("#table-center .discards .card").count() == 3
                        or page.locator("#summary[open]").count())
        else:
            acted = take_turn(page)
        if not acted:
            page.wait_for_timeout(50)
    assert saw_widow, "the widow was never shown after the auction"
    summary = page.locator("#summary").inner_text()
    assert "is over" in summary and "Widow:" in summary and "the declarer discarded" in summary
    page.get_by_role("button", name="Continue").click()
    # an individual score pad: a column per player
    assert page.locator("#scores tr").first.locator("th").count() == 4
    fair = page.locator("#fair .fair-list li").first
    assert "✓ verified" in fair.inner_text() and "gives your cards exactly" in fair.inner_text()
    assert "--players 3" in fair.inner_text()
    with page.expect_popup() as popup_info:
        page.locator("#history a").first.click()
    replay = popup_info.value
    replay.wait_for_selector(".replay-seat")
    assert replay.locator(".replay-seat").count() == 3
    replay.get_by_role("button", name="Last step").click()
    assert "Widow" in replay.locator("#result").inner_text()
    replay.close()
    assert not errors, errors
    page.close()


def test_two_handed_with_a_meld_turn_by_clicking(server: ServerProcess,
                                                 browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = watch_errors(page)
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Rules").select_option("two")
    assert page.locator(".seat-kind").count() == 1
    assert "North" in page.locator("#seats").inner_text()
    page.select_option("#seat1", "easy")
    page.get_by_text("Table settings").click()
    page.get_by_label("Seconds a computer waits before each move").fill("0.05")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    assert page.locator("#hand .card").count() == 12
    stock = page.locator("#table-center .stock")
    assert "Stock: 24 cards" in stock.inner_text()
    turned = stock.locator(".card").get_attribute("aria-label")
    assert turned is not None and turned.startswith("turned-up trump card: ")
    controls = page.locator("#controls")
    meld_turns = laid = 0
    keyboard_played = late = False
    deadline = time.monotonic() + 240
    while not (laid and page.locator("#summary[open]").count()):
        assert time.monotonic() < deadline, page.locator("#status").inner_text()
        if page.locator("#summary[open]").count():  # no meld laid yet: play another hand
            page.get_by_role("button", name="Continue").click()
        late = late or "last tricks" in page.locator("#status").inner_text()
        melds = controls.get_by_role("button", name=re.compile(r"^Meld "))
        other = controls.get_by_role("button", name=re.compile(r"^(Dix|No meld|Done)"))
        playable = page.locator("#hand button.playable")
        acted = False
        name = read(melds.first, "aria-label") if melds.count() else None
        if name is not None:
            assert re.match(r"Meld [a-z ]+: .+, \d+ points$", name), name
            acted = click(melds.first)
            if acted:
                meld_turns += 1
                # the meld lies face up on Ann's side of the table, unless that was the
                # last draw (RULES.md §4: with the stock gone the melds go back to hand)
                page.wait_for_function("""() => document.querySelector(
                    '#seat-bottom .table-cards .card') || document.querySelector(
                    '#status').textContent.includes('last tricks')""")
                laid += page.locator("#seat-bottom .table-cards .card").count() > 0
        elif other.count():
            acted = click(other.first)
            meld_turns += acted
        elif playable.count() and not keyboard_played:
            # keyboard play: focus a playable card, move along the hand, press Enter
            playable.first.focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("Enter")
            acted = keyboard_played = True
        elif playable.count():
            acted = click(playable.first)
        if not acted:
            page.wait_for_timeout(50)
    assert meld_turns >= 1 and laid >= 1 and keyboard_played and late
    summary = page.locator("#summary").inner_text()
    assert "is over" in summary and "Total" in summary
    page.get_by_role("button", name="Continue").click()
    assert page.locator("#scores tr").first.locator("th").count() == 3  # hand, Ann, North
    fair = page.locator("#fair .fair-list li").first
    assert "✓ verified" in fair.inner_text() and "gives your cards exactly" in fair.inner_text()
    assert "--players 2" in fair.inner_text()
    unnamed = page.evaluate("""[...document.querySelectorAll('button, input, select, a')]
        .filter((e) => !e.hidden && e.offsetParent !== null)
        .filter((e) => !(e.getAttribute('aria-label') || e.textContent.trim()
                         || (e.labels && e.labels.length)))
        .map((e) => e.outerHTML)""")
    assert unnamed == []
    with page.expect_popup() as popup_info:
        page.locator("#history a").first.click()
    replay = popup_info.value
    replay.wait_for_selector(".replay-seat")
    assert replay.locator(".replay-seat").count() == 2
    replay.get_by_role("button", name="Last step").click()
    assert "stock, in drawing order" in replay.locator("#result").inner_text()
    replay.close()
    assert not errors, errors
    page.close()


def test_three_handed_game_over_rematch_and_history(server: ServerProcess,
                                                    browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = watch_errors(page)
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Rules").select_option("three")
    set_options(page, {"target": "100"})
    page.select_option("#seat1", "easy")
    page.select_option("#seat2", "random")
    page.get_by_text("Table settings").click()
    page.get_by_label("Seconds a computer waits before each move").fill("0.05")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    deadline = time.monotonic() + 240
    while not page.locator("#status", has_text="Game over").count():
        assert time.monotonic() < deadline, page.locator("#status").inner_text()
        if page.locator("#summary[open]").count():
            page.get_by_role("button", name="Continue").click()
        elif not take_turn(page):
            page.wait_for_timeout(50)
    status = page.locator("#status").inner_text()
    assert re.search(r"Game over: .+ wins with \d+ \(others: -?\d+, -?\d+\)\.", status), status
    assert page.locator("#scores tr.total td").count() == 3
    if page.locator("#summary[open]").count():
        page.get_by_role("button", name="Continue").click()
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_function("!document.querySelector('#status').textContent.includes('Game over')")
    page.get_by_role("link", name="History of every game at this table").click()
    page.wait_for_selector(".history-game h2")
    first = page.locator(".history-game h2").first.inner_text()
    assert first.startswith("Game 1 (three(target=100))") and "won by" in first, first
    assert not errors, errors
    page.close()


def test_the_lobby_hides_options_the_chosen_game_does_not_have(server: ServerProcess,
                                                              browser: Browser) -> None:
    """Two-handed has no auction (RULES.md §4), three-handed no partners (§3), and only
    three-handed a widow: the form shows just the options the chosen game has, and a
    table made after switching presets carries none of the hidden ones."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = watch_errors(page)
    page.goto(server.url + "/")
    page.get_by_text("Change any rule option").click()
    page.fill("#opt-min_bid", "300")  # a four-handed change, then the game changes
    shown = {"pagat": {"min_bid": True, "cards_passed": True, "widow": False},
             "three": {"min_bid": True, "cards_passed": False, "widow": True},
             "two": {"min_bid": False, "cards_passed": False, "widow": False,
                     "target": True, "trick_points": True}}
    for preset, expected in shown.items():
        page.get_by_label("Rules").select_option(preset)
        for option, visible in expected.items():
            assert page.locator(f"#opt-{option}").is_visible() == visible, (preset, option)
    page.select_option("#seat1", "easy")
    assert "(two)" in open_from_lobby(page, "Ann")
    assert not errors, errors
    page.close()


def open_from_lobby(page: Page, name: str) -> str:
    """Give a name, press *Create table* and wait for the table's cards: its title."""
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    return page.locator("#table-title").inner_text()


def select_values(page: Page, option: str) -> list[str]:
    """The values a rule option's select offers now."""
    values: list[str] = page.locator(f"#opt-{option} option").evaluate_all(
        "(options) => options.map((o) => o.value)")
    return values


def test_the_lobby_offers_only_values_the_chosen_game_takes(server: ServerProcess,
                                                            browser: Browser) -> None:
    """Three-handed has no chip scoring (RULES.md §3: it pays one opposing team): the
    select leaves it out for ``three`` and offers it again for a four-handed preset;
    a value the preset takes only with another change says which (``divide_by_ten``
    with classic trick points, two-handed); a table made with an offered value keeps it."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = watch_errors(page)
    page.goto(server.url + "/")
    page.get_by_text("Change any rule option").click()
    assert select_values(page, "set_penalty") == ["contract", "chips", "shortfall"]
    page.get_by_label("Rules").select_option("three")
    assert select_values(page, "set_penalty") == ["contract", "shortfall"]
    assert page.locator("#opt-set_penalty").input_value() == "shortfall"
    assert select_values(page, "widow") == ["out", "take"]
    assert page.locator("#needs-set_forfeits_meld").inner_text() == (
        "(no only with set_penalty=contract)")
    page.get_by_label("Rules").select_option("two")
    assert page.locator("#needs-divide_by_ten").inner_text() == (
        "(yes only with trick_points=counters)")
    assert not page.locator("#needs-set_forfeits_meld").is_visible()
    page.get_by_label("Rules").select_option("chips")
    assert select_values(page, "set_penalty") == ["contract", "chips", "shortfall"]
    assert page.locator("#opt-set_penalty").input_value() == "chips"
    page.get_by_label("Rules").select_option("three")
    page.select_option("#opt-set_penalty", "contract")
    assert "three(set_penalty=contract)" in open_from_lobby(page, "Ann")
    assert not errors, errors
    page.close()


def test_hint_marks_the_suggested_bid_and_card(server: ServerProcess, browser: Browser) -> None:
    """docs/web.md "Hints": the ? key on the person's first turn (a call in the auction,
    or naming trump when the dealer is stuck with the bid), then the Hint button on a
    turn of the card play; the panel shows the explanation of the action it names,
    and the suggested button or card is outlined."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = watch_errors(page)
    create_table(page, server, "Ann", ["simple", "simple", "simple"])
    page.wait_for_selector("#controls .bidding, #controls .trump-choice", timeout=60000)
    page.locator("body").press("?")
    panel = page.locator("#hint-panel")
    panel.wait_for(state="visible", timeout=60000)
    action = panel.locator(".hint-action span").inner_text()
    assert action.startswith(("pass", "bid ", "trump ")), action
    assert panel.locator(".hint-text").inner_text().startswith(action + ":")
    marked = page.locator("#controls .hinted")
    assert marked.count() == 1
    if marked.get_attribute("id") == "bid-amount":  # a bid above the quick buttons
        assert "bid " + marked.input_value() == action
    else:
        assert marked.get_attribute("data-action") == action
    # on to a turn of the card play, passing in the auction; a hand can end before the
    # play (a declarer that throws in), and then the next hand is dealt
    # the declarer's first turn of the play may be a hint to throw in: that button is
    # marked, and the person plays a card instead and asks on the next turn
    deadline = time.monotonic() + 180
    while True:
        assert time.monotonic() < deadline, page.locator("#status").inner_text()
        if page.locator("#summary[open]").count():
            click(page.get_by_role("button", name="Continue"))
            continue
        if not page.locator("#hand button.playable").count():
            if not take_turn(page, play=False):
                page.wait_for_timeout(50)
            continue
        page.get_by_role("button", name=re.compile(r"^Hint")).click()
        panel.wait_for(state="visible", timeout=60000)
        action = panel.locator(".hint-action span").inner_text()
        if action != "throw in":
            break
        assert page.locator("#controls .hinted").get_attribute("data-action") == action
        click(page.locator("#hand button.playable").first)
        page.wait_for_function("document.querySelector('#hint-panel').hidden")
    assert action.startswith("play "), action
    assert panel.locator(".hint-text").inner_text().startswith(action + ":")
    card = page.locator("#hand button.hinted")
    assert card.count() == 1
    assert card.get_attribute("data-card") == action.split()[1]
    assert "playable" in (card.get_attribute("class") or "")
    card.click()  # the suggestion is played like any card: the panel goes
    page.wait_for_function("document.querySelector('#hint-panel').hidden")
    assert not errors, errors
    page.close()


def test_a_name_typed_while_the_lobby_loads_is_kept(server: ServerProcess,
                                                     browser: Browser) -> None:
    """The lobby fills the name from the last visit once /api/meta has arrived; a name
    the person typed before that must stay (it was wiped, and "Create table" then
    said "Give your name first.": a flaky browser test found it)."""
    page = browser.new_page()
    held: list[Route] = []
    page.route("**/api/meta", lambda route: held.append(route))  # hold the first request
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Bea")
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert held, "the lobby never asked for /api/meta"
    held[0].continue_()
    page.get_by_label("Rules").select_option("pagat")
    assert page.get_by_label("Your name").input_value() == "Bea"
    page.unroute("**/api/meta")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*")  # the table was made under the typed name
    page.close()
