"""The devtools' doors: every route and the WebSocket upgrade want the token (query or Bearer), a wrong or missing
one gets 401 with an empty body, and a WebSocket upgrade from another origin is refused even with the token. (A
refused upgrade is answered 400 with an empty body: hummingbird-websocket answers every refused upgrade so.)"""

import base64
import http.client
import os
import urllib.parse

import pytest
from selenium.webdriver.common.by import By


def get(devtools, path, headers=None):
    """(status, body) of a GET to the devtools server."""
    address = urllib.parse.urlsplit(devtools.base)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def upgrade_headers(devtools, origin):
    host = urllib.parse.urlsplit(devtools.base).netloc
    return {"Host": host, "Origin": origin, "Connection": "Upgrade", "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode()}


@pytest.mark.parametrize("path", ["/", "/index.html", "/app.js", "/style.css", "/metrics", "/ws", "/missing"])
def test_without_the_token_every_route_is_401_with_nothing_else(devtools, client, path):
    client.query.set(["secret"], "the cache's data")
    wrong = "0" * len(devtools.token)
    for headers, query in [({}, ""), ({}, f"?token={wrong}"), ({"Authorization": f"Bearer {wrong}"}, ""),
                           ({}, f"?token={devtools.token[:-1]}"), ({"Authorization": "Basic " + devtools.token}, "")]:
        status, body = get(devtools, path + query, headers)
        assert (status, body) == (401, b""), (path, headers, query)


def test_the_token_opens_each_route_by_query_or_bearer(devtools):
    assert get(devtools, f"/?token={devtools.token}")[0] == 200
    assert get(devtools, "/metrics", {"Authorization": f"Bearer {devtools.token}"})[0] == 200
    status, body = get(devtools, f"/app.js?token={devtools.token}")
    assert status == 200 and b"import" in body


def test_a_websocket_upgrade_needs_the_token_and_the_pages_own_origin(devtools):
    own = devtools.base
    assert get(devtools, f"/ws?token={devtools.token}", upgrade_headers(devtools, own))[0] == 101
    refused = (400, b"")
    assert get(devtools, "/ws", upgrade_headers(devtools, own)) == refused
    assert get(devtools, f"/ws?token={'0' * len(devtools.token)}", upgrade_headers(devtools, own)) == refused
    for origin in ["http://evil.example", "http://127.0.0.1:1", "null", own.replace("127.0.0.1", "evil.example")]:
        assert get(devtools, f"/ws?token={devtools.token}", upgrade_headers(devtools, origin)) == refused, origin
    headers = upgrade_headers(devtools, own)
    del headers["Origin"]
    assert get(devtools, f"/ws?token={devtools.token}", headers) == refused
    # A DNS-rebound name: Origin and Host agree, but the host is not the one the devtools listen on.
    headers = upgrade_headers(devtools, own.replace("127.0.0.1", "evil.example"))
    headers["Host"] = headers["Origin"].removeprefix("http://")
    assert get(devtools, f"/ws?token={devtools.token}", headers) == refused


def test_the_page_with_a_wrong_token_shows_nothing(browser, devtools, client):
    client.query.set(["secret"], "the cache's data")
    browser.get(f"{devtools.base}/?token={'f' * len(devtools.token)}")
    assert "secret" not in browser.page_source
    assert "the cache's data" not in browser.page_source
    assert browser.find_elements(By.ID, "list") == []
    assert "401" in browser.find_element(By.TAG_NAME, "body").text  # Chromium's own error page
