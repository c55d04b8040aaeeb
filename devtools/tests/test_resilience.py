"""The devtools outlive the daemon: while it is down the page says so and /metrics answers 503 (empty of data);
once it is back, the page shows the new daemon's cache without a reload."""

import json
import time
import urllib.error
import urllib.request

from queryd_client.sync import Client
from selenium.webdriver.common.by import By


def test_the_page_follows_a_restarted_daemon(browser, devtools, daemon):
    with Client(path=daemon.socket_path, timeout=10) as client:
        client.query.set(["before"], 1)
    browser.get(devtools.url)
    deadline = time.monotonic() + 5
    key = "#list tr.query[data-key='[\"before\"]']"
    while not browser.find_elements(By.CSS_SELECTOR, key):
        assert time.monotonic() < deadline, "the first daemon's query"
        time.sleep(0.05)

    daemon.stop()
    deadline = time.monotonic() + 5
    while "daemon unreachable" not in browser.find_element(By.ID, "connection").text:
        assert time.monotonic() < deadline, "the page never said the daemon was gone"
        time.sleep(0.05)
    request = urllib.request.Request(f"{devtools.base}/metrics", headers={"Authorization": f"Bearer {devtools.token}"})
    try:
        urllib.request.urlopen(request, timeout=10)
        raise AssertionError("/metrics answered without a daemon")
    except urllib.error.HTTPError as error:
        assert error.code == 503

    daemon.start()
    with Client(path=daemon.socket_path, timeout=10) as client:
        client.query.set(["after"], {"restarted": True})
    deadline = time.monotonic() + 5
    while True:
        keys = browser.execute_script(
            "return [...document.querySelectorAll('#list tr.query')].map((row) => row.dataset.key)")
        if keys == [json.dumps(["after"])]:
            break
        assert time.monotonic() < deadline, f"the page shows {keys}"
        time.sleep(0.05)
    assert browser.find_element(By.ID, "connection").text == "connected"
