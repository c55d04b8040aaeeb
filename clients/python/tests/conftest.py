"""pytest setup: import queryd_client from ../src without installing it, and provide a daemon
per test module (``--manual-clock``, so no timer fires unless a test advances the clock)."""

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from support import Daemon  # noqa: E402


@pytest.fixture(scope="module")
def daemon():
    """A daemon shared by the tests of one module; it must stop with exit status 0."""
    process = Daemon(["--manual-clock"])
    try:
        yield process
        status = process.stop()
        assert status == 0, f"daemon exit status {status}\n{process.log_tail()}"
    finally:
        process.close()
