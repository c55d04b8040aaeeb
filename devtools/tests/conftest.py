"""pytest setup for the devtools suite: the real ``queryd serve`` (``--manual-clock``, on a temporary socket), the
real ``queryd-devtools`` over it (on a free loopback port), a Python client of the daemon, and headless Chromium
driven by Selenium. Nothing is built here: ``./scripts/test`` builds both programs first.

The daemon is ``$QUERYD_BIN``, else ``.build/debug/queryd``; the devtools ``$QUERYD_DEVTOOLS_BIN``, else
``devtools/.build/debug/queryd-devtools``. Screenshots go to ``devtools/tests/artifacts/``.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parents[1]
ARTIFACTS = HERE / "artifacts"
# The Python client and its suite's daemon launcher, used as they are.
sys.path.insert(0, str(REPOSITORY / "clients" / "python" / "src"))
sys.path.insert(0, str(REPOSITORY / "clients" / "python" / "tests"))

from queryd_client.sync import Client  # noqa: E402
from support import Daemon  # noqa: E402


class Devtools:
    """One ``queryd-devtools`` process; ``url`` is the page's URL as it printed it (token included)."""

    def __init__(self, socket_path: str) -> None:
        binary = os.environ.get("QUERYD_DEVTOOLS_BIN") or str(
            REPOSITORY / "devtools" / ".build" / "debug" / "queryd-devtools")
        if not os.access(binary, os.X_OK):
            raise RuntimeError(f"queryd-devtools not found at {binary} (swift build --package-path devtools)")
        self.log = tempfile.NamedTemporaryFile(prefix="queryd-devtools-", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            [binary, "--socket", socket_path, "--listen", "127.0.0.1:0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("queryd devtools: http://"):
            self.process.kill()
            raise RuntimeError(f"queryd-devtools printed {line!r}\n{Path(self.log.name).read_text()}")
        self.url = line.split()[2]
        self.base, _, self.token = self.url.partition("/?token=")

    def stop(self) -> int:
        """SIGTERM; the exit status (Hummingbird shuts down gracefully)."""
        self.process.terminate()
        try:
            return self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise


@pytest.fixture(scope="module")
def daemon():
    process = Daemon(["--manual-clock"])
    try:
        yield process
        assert process.stop() == 0, process.log_tail()
    finally:
        process.close()


@pytest.fixture(scope="module")
def devtools(daemon):
    process = Devtools(daemon.socket_path)
    yield process
    assert process.stop() == 0


@pytest.fixture
def client(daemon):
    with Client(path=daemon.socket_path, timeout=10) as connection:
        yield connection


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800"]:
        options.add_argument(argument)
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()
