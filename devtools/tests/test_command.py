"""`queryd devtools` runs queryd-devtools (beside queryd, else on PATH) with its arguments, or says how to build it."""

import os
import subprocess
from pathlib import Path

from conftest import REPOSITORY
from support import binary_path


def devtools_directory():
    return str(Path(os.environ.get("QUERYD_DEVTOOLS_BIN") or
                    REPOSITORY / "devtools" / ".build" / "debug" / "queryd-devtools").parent)


def test_it_runs_queryd_devtools_from_path_with_the_arguments(daemon):
    environment = dict(os.environ, PATH=f"{devtools_directory()}:/usr/bin:/bin")
    process = subprocess.Popen([binary_path(), "devtools", "--socket", daemon.socket_path, "--listen", "127.0.0.1:0"],
                               env=environment, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("queryd devtools: http://127.0.0.1:") and "/?token=" in line, line
        assert line.rstrip().endswith(f"(daemon socket {daemon.socket_path})")
    finally:
        process.terminate()
        assert process.wait(10) == 0


def test_without_queryd_devtools_it_says_how_to_build_it():
    done = subprocess.run([binary_path(), "devtools"], env=dict(os.environ, PATH="/usr/bin:/bin"),
                          capture_output=True, text=True, timeout=10)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "swift build --package-path devtools" in done.stderr
