"""The devtools page in headless Chromium: queries appear with TanStack Devtools' state colours, the page's
invalidate button makes the registered fetcher fetch, and the set-data dialog writes the cache."""

import asyncio
import json
import threading
import time

from conftest import ARTIFACTS
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from queryd_client import HandlerError

# TanStack Devtools' colours, as the page's badges show them (computed style).
COLOURS = {
    "fresh": "rgb(18, 183, 106)", "fetching": "rgb(46, 144, 250)", "paused": "rgb(122, 90, 248)",
    "stale": "rgb(247, 144, 9)", "inactive": "rgb(102, 112, 133)", "error": "rgb(240, 68, 56)",
}


def row(browser, key):
    """What the list row of `key` shows (read in one script: the page redraws rows as the cache changes), or None:
    {"classes": [...], "cells": [texts], "badge": the badge's background colour}."""
    return browser.execute_script(
        """const row = document.querySelector(`#list tr.query[data-key='${arguments[0]}']`);
        return row && {classes: [...row.classList], cells: [...row.cells].map((cell) => cell.textContent),
                       badge: getComputedStyle(row.querySelector(".badge")).backgroundColor};""",
        json.dumps(key, separators=(",", ":")))


def click(browser, selector):
    """Clicks the element `selector` finds, finding it again if the page redrew it meanwhile."""
    def attempt():
        try:
            browser.find_element(By.CSS_SELECTOR, selector).click()
            return True
        except (NoSuchElementException, StaleElementReferenceException):
            return False
    wait_for(attempt, 1.0, f"a click on {selector}")


def wait_for(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"not within {timeout} s: {what}")


def open_page(browser, devtools):
    browser.get(devtools.url)
    WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "connection").text == "connected")


def test_a_query_set_over_the_socket_appears_within_a_second_with_its_colour(browser, devtools, client):
    open_page(browser, devtools)
    assert row(browser, ["greeting"]) is None
    started = time.monotonic()
    client.query.set(["greeting"], "hello")
    shown = wait_for(lambda: row(browser, ["greeting"]), 1.0, "the row of a query set over the socket")
    assert time.monotonic() - started < 1.0
    # No subscription: TanStack Devtools calls it inactive (grey).
    assert "state-inactive" in shown["classes"]
    assert shown["badge"] == COLOURS["inactive"]

    # Observed with a long staleTime (the manual clock stands still): fresh, green.
    subscription = client.subscribe(["greeting"], stale_time=60_000)
    assert subscription.next(5).data == "hello"
    fresh = wait_for(lambda: (lambda shown: "state-fresh" in shown["classes"] and shown)(row(browser, ["greeting"])),
                     1.0, "fresh")
    assert fresh["badge"] == COLOURS["fresh"]
    assert fresh["cells"][:3] == ["fresh", '["greeting"]', "1"]  # state, key, observers
    subscription.close()
    wait_for(lambda: "state-inactive" in row(browser, ["greeting"])["classes"], 1.0, "inactive again")


def test_invalidate_on_the_page_makes_the_registered_fetcher_fetch(browser, devtools, client):
    fetched = []
    done = threading.Event()

    def fetch(key):
        fetched.append(key)
        done.set()
        return {"items": ["buy milk", "call mum"], "fetch": len(fetched)}

    client.register_fetcher(["todos"], fetch)
    subscription = client.subscribe(["todos"], stale_time=60_000)
    wait_for(lambda: subscription.next(5).is_success, 5, "the first fetch")
    assert fetched == [["todos"]]
    client.query.set(["todos", "archived"], [])
    client.query.set(["users", 1], {"name": "Ada", "roles": ["admin"]})

    open_page(browser, devtools)
    wait_for(lambda: row(browser, ["todos"]), 1.0, "the todos row")
    click(browser, "#list tr.query[data-key='[\"todos\"]']")
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#details button[data-action='invalidate']"), 1.0,
             "the details of todos")
    assert "call mum" in browser.execute_script("return document.querySelector('#details .data').innerText")
    done.clear()
    click(browser, "#details button[data-action='invalidate']")
    assert done.wait(5), "the fetcher got no fetch after invalidate"
    assert fetched == [["todos"], ["todos"]]
    wait_for(lambda: "fetch: 2" in browser.execute_script("return document.querySelector('#details .data').innerText"),
             2, "the refetched data")
    wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#details .timeline li")) >= 2, 2,
             "the timeline shows the refetch")
    time.sleep(0.5)
    assert fetched == [["todos"], ["todos"]]  # one click, one fetch
    subscription.close()


def test_each_state_has_its_colour_and_the_screenshot_shows_them(browser, devtools, client):
    async def never_answers(key):
        await asyncio.sleep(3600)

    def fails(key):
        raise HandlerError("upstream said 503", code=503, data={"retryAfter": 30})

    client.register_fetcher(["reports"], fails)
    client.register_fetcher(["feed"], never_answers)
    client.register_fetcher(["offline"], lambda key: "never fetched")
    client.query.set(["profile", {"id": 7}], {"name": "Ada Lovelace", "languages": ["en", "fr"], "admin": True})
    client.query.set(["locale"], "en-GB")
    subscriptions = [
        client.subscribe(["profile", {"id": 7}], stale_time=60_000),
        client.subscribe(["reports", "weekly"], retry=0),
        client.subscribe(["feed"]),
    ]
    client.query.set(["archive", 2024], ["file taxes"])
    subscriptions.append(client.subscribe(["archive", 2024], stale_time=60_000))
    for subscription in subscriptions:
        subscription.next(5)  # subscribed (the first state is the current one)
    client.queries.invalidate(key=["archive", 2024], exact=True, refetch_type="none")
    expected = {
        '["profile",{"id":7}]': "fresh", '["reports","weekly"]': "error", '["feed"]': "fetching",
        '["archive",2024]': "stale", '["locale"]': "inactive",
    }
    try:
        open_page(browser, devtools)

        seen = {}

        def all_shown():
            seen.update({key: row(browser, json.loads(key)) for key in expected})
            return all(seen[key] and seen[key]["cells"][0] == state for key, state in expected.items())

        try:
            wait_for(all_shown, 2.0, "every state")
        except AssertionError:
            raise AssertionError({key: shown and shown["cells"][0] for key, shown in seen.items()})
        rows = seen
        # Offline (daemon-wide), a new query's fetch waits: paused.
        client.set_online(False)
        subscriptions.append(client.subscribe(["offline"]))
        subscriptions[-1].next(5)
        wait_for(lambda: (row(browser, ["offline"]) or {}).get("cells", [None])[0] == "paused", 1.0, "paused")
        rows['["offline"]'] = row(browser, ["offline"])
        expected['["offline"]'] = "paused"
        for key, state in expected.items():
            assert f"state-{state}" in rows[key]["classes"] and rows[key]["badge"] == COLOURS[state], key
        chips = browser.execute_script(
            "return [...document.querySelectorAll('#state-counts .chip')].map((chip) => chip.textContent)")
        assert all(any(chip.startswith(state + " ") for chip in chips) for state in COLOURS)

        # The tree view: keys by their elements.
        click(browser, "#show-tree")
        tree = browser.execute_script("return document.getElementById('tree').innerText")
        assert "profile" in tree and '{"id":7}' in tree and "weekly" in tree
        click(browser, "#show-list")

        click(browser, "#list tr.query[data-key='[\"profile\",{\"id\":7}]']")
        wait_for(lambda: "Ada Lovelace" in browser.execute_script(
            "return document.querySelector('#details .data')?.innerText || ''"), 1.0, "the profile's data")
        for tick in range(12):  # some traffic for the graphs
            client.query.set(["ticker"], tick)
            time.sleep(0.25)
        ARTIFACTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "devtools.png"))
    finally:
        client.set_online(True)
        for subscription in subscriptions:
            subscription.close()


def test_set_data_asks_for_confirmation_and_writes_the_cache(browser, devtools, client):
    client.query.set(["settings"], {"theme": "light"})
    open_page(browser, devtools)
    wait_for(lambda: row(browser, ["settings"]), 1.0, "the settings row")
    click(browser, "#list tr.query[data-key='[\"settings\"]']")
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#details button[data-action='set']"), 1.0, "details")
    click(browser, "#details button[data-action='set']")
    text = browser.find_element(By.ID, "set-data")
    text.clear()
    text.send_keys('{"theme": "dark"}')
    browser.find_element(By.ID, "set-confirm").click()
    alert = WebDriverWait(browser, 2).until(lambda b: b.switch_to.alert)
    assert "Replace the data" in alert.text
    alert.accept()
    wait_for(lambda: client.query.get(["settings"]) == {"theme": "dark"}, 2, "the new data in the cache")

    # Remove asks too; dismissing it leaves the query alone.
    click(browser, "#details button[data-action='remove']")
    WebDriverWait(browser, 2).until(lambda b: b.switch_to.alert).dismiss()
    time.sleep(0.3)
    assert client.query.get(["settings"]) == {"theme": "dark"}


def test_the_list_filters_by_key_and_state_and_sorts_by_column(browser, devtools, client):
    for index in range(3):
        client.query.set(["sorting", index], index)
    subscription = client.subscribe(["sorting", 1], stale_time=60_000)
    subscription.next(5)
    open_page(browser, devtools)
    wait_for(lambda: row(browser, ["sorting", 2]), 1.0, "the rows")

    def keys():
        return browser.execute_script("return [...document.querySelectorAll('#list tr.query')].map((r) => r.dataset.key)")

    browser.find_element(By.ID, "filter").send_keys("sorting")
    assert keys() == ['["sorting",0]', '["sorting",1]', '["sorting",2]']
    click(browser, "#list th[data-sort='key']")  # sorted by key already: now descending
    assert keys() == ['["sorting",2]', '["sorting",1]', '["sorting",0]']
    click(browser, "#list th[data-sort='observers']")
    assert keys()[-1] == '["sorting",1]'  # the one observed, last when ascending
    browser.execute_script("const s = document.getElementById('state-filter'); s.value = 'fresh'; s.onchange()")
    assert keys() == ['["sorting",1]']
    browser.execute_script("const s = document.getElementById('state-filter'); s.value = ''; s.onchange()")
    subscription.close()


def table(browser, name):
    """The cells of each row of the activity table `name` (fetchers, mutators, fetches, mutations)."""
    return browser.execute_script(
        "return [...document.querySelectorAll(`#${arguments[0]} tbody tr`)].map((r) => [...r.cells].map((c) => c.textContent))",
        name)


def test_registrations_and_fetches_in_flight_show_as_the_events_tell_them(browser, devtools, client):
    release = threading.Event()

    async def held(key):
        while not release.is_set():
            await asyncio.sleep(0.02)
        return "slow data"

    open_page(browser, devtools)
    client.register_fetcher(["held"], held)
    client.register_mutator(["held"], lambda key, variables: variables)
    fetcher = wait_for(lambda: [row for row in table(browser, "fetchers") if row[1] == '["held"]'], 1.0,
                       "the fetcher in the fetchers panel")[0]
    assert fetcher[3] == "0"  # nothing in flight under its prefix
    assert [row[1] for row in table(browser, "mutators")] == ['["held"]']

    subscription = client.subscribe(["held"])
    try:
        assert subscription.next(5).fetch_status == "fetching"
        wait_for(lambda: ['["held"]'] in table(browser, "fetches"), 1.0, "the fetch in flight")
        wait_for(lambda: [row[3] for row in table(browser, "fetchers") if row[1] == '["held"]'] == ["1"], 1.0,
                 "the fetcher's fetch in flight")
        release.set()
        wait_for(lambda: ['["held"]'] not in table(browser, "fetches"), 2.0, "the fetch settled")
    finally:
        release.set()
        subscription.close()


def test_the_timeline_has_a_fetch_however_short(browser, devtools, client):
    client.register_fetcher(["quick"], lambda key: "at once")
    open_page(browser, devtools)
    subscription = client.subscribe(["quick"], stale_time=60_000)
    try:
        wait_for(lambda: subscription.next(5).is_success, 5, "the fetch")
        click(browser, "#list tr.query[data-key='[\"quick\"]']")

        def states():
            return browser.execute_script(
                "return [...document.querySelectorAll('#details .timeline li')].map((li) => li.dataset.state).reverse()")
        # Oldest first: added while fetching (by its subscription), fetch.started, the data (fresh), fetch.settled.
        shown = wait_for(lambda: (lambda s: "settled" in s and s)(states()), 1.0, "the settled fetch")
        assert shown == ["fetching", "fetching", "fresh", "settled"]
    finally:
        subscription.close()
