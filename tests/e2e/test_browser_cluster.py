"""The web table in a real browser against a cluster (docs/web-cluster.md): two
`pinochle serve` processes sharing PostgreSQL and Redis behind a small TCP load
balancer that sends each new connection to the first process alive. The page's
process (also the table's owner) is killed with SIGKILL while it is the person's
turn to play a card; the page reconnects by itself through the balancer to the other
process, which takes the table over: the same hand, the seat still the person's,
and the card the person then plays is applied."""

from __future__ import annotations

import contextlib
from pathlib import Path

from playwright.sync_api import Browser
from tcp_proxy import TcpProxy
from web_helpers import pg_url

from pinochlekit.web.process import ServerProcess

from .test_browser import CARD_TO_PLAY, browser, create_table, play_until, watch_errors

__all__ = ["browser"]  # the fixture, shared with test_browser.py


def test_the_page_reconnects_after_its_process_dies(tmp_path: Path, browser: Browser) -> None:
    from test_cluster import redis_url

    extra = ("--redis", redis_url(), "--lease-ttl", "2", "--create-limit", "100000",
             "--max-per-address", "100000")
    with contextlib.ExitStack() as stack:
        a, b = (stack.enter_context(ServerProcess(pg_url(), log=tmp_path / f"{n}.log",
                                                  extra=extra)) for n in ("a", "b"))
        balancer = TcpProxy(("127.0.0.1", a.port), ("127.0.0.1", b.port))
        stack.callback(balancer.close)
        page = browser.new_page()
        errors = watch_errors(page)
        front = ServerProcess(None, port=balancer.port)  # its addresses only: not started
        create_table(page, front, "Dora", ["simple", "simple", "simple"])
        page.wait_for_selector("#hand .card")
        play_until(page, CARD_TO_PLAY, seconds=60, play=False)
        # the person's turn to play a card: nothing moves until the card is played
        hand = page.locator("#hand").inner_text()
        a.stop(kill=True)  # SIGKILL: the page's process, the table's owner
        page.wait_for_selector("#connection:has-text('reconnecting')", timeout=30000)
        page.wait_for_function("document.getElementById('connection').textContent === ''",
                               timeout=60000)
        page.wait_for_selector("#hand button.playable", timeout=30000)
        assert page.locator("#hand").inner_text() == hand
        assert "(you" in page.locator("#seat-bottom").inner_text()
        cards = page.locator("#hand button").count()
        page.locator("#hand button.playable").first.click()
        page.wait_for_function(f"document.querySelectorAll('#hand button').length < {cards}",
                               timeout=30000)
        # errors of the page's own: the lost connection's are the browser's, not the page's
        assert not [e for e in errors if "WebSocket" not in e and "ERR_" not in e], errors
        page.close()
