"""Test support: start the real ``queryd serve`` on a temporary socket, and small async helpers.

The binary is ``$QUERYD_BIN``, else ``<repository>/.build/debug/queryd``. Waits only bound how
long a test waits for something; they never decide an outcome.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Awaitable, Callable, List, Optional

REPOSITORY = Path(__file__).resolve().parents[3]


def binary_path() -> str:
    """The daemon under test."""
    return os.environ.get("QUERYD_BIN") or str(REPOSITORY / ".build" / "debug" / "queryd")


class Daemon:
    """One ``queryd serve`` process; ``restart()`` starts a new one on the same socket."""

    def __init__(self, flags: Optional[List[str]] = None) -> None:
        self.flags = flags or []
        self.socket_path = f"/tmp/qd-py-{os.getpid()}-{os.urandom(4).hex()}.sock"
        self.log = tempfile.NamedTemporaryFile(prefix="queryd-py-", suffix=".log", delete=False)
        self.process: Optional[subprocess.Popen] = None
        self.start()

    def start(self) -> None:
        """Starts the daemon and waits (at most 10 s) until the socket accepts connections."""
        binary = binary_path()
        if not os.access(binary, os.X_OK):
            raise RuntimeError(f"queryd binary not found at {binary} (build it or set QUERYD_BIN)")
        self.process = subprocess.Popen(
            [binary, "serve", "--socket", self.socket_path, *self.flags],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"queryd exited during startup ({self.process.returncode}):\n{self.log_tail()}")
            try:
                with socket.socket(socket.AF_UNIX) as probe:
                    probe.connect(self.socket_path)
                return
            except OSError:
                time.sleep(0.01)
        self.kill()
        raise RuntimeError(f"queryd did not accept on {self.socket_path} within 10 s\n{self.log_tail()}")

    def stop(self) -> int:
        """SIGTERM, then waits up to 5 s; returns the exit status."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()
                raise RuntimeError(f"queryd ignored SIGTERM\n{self.log_tail()}")
        return self.process.returncode

    def kill(self) -> None:
        """SIGKILL: the daemon cannot clean up (the socket file stays, stale)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def restart(self) -> None:
        """Stops (SIGTERM) and starts a fresh daemon on the same socket."""
        self.stop()
        self.start()

    def log_tail(self, size: int = 4000) -> str:
        """The end of the daemon's log, for failure messages."""
        with open(self.log.name, "rb") as handle:
            return handle.read()[-size:].decode(errors="replace")

    def close(self) -> None:
        """Kills a daemon still running and removes its files."""
        self.kill()
        for path in (self.socket_path, self.log.name):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


def run(coroutine: Awaitable, timeout: float = 20) -> object:
    """Runs a test coroutine on a fresh event loop, bounded by ``timeout`` seconds."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def eventually(check: Callable[[], Awaitable[bool]], what: str, seconds: float = 5) -> None:
    """Polls ``check`` every 10 ms until it is true; fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        await asyncio.sleep(0.01)
