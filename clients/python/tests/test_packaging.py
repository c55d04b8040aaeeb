"""Packaging, as the README says: ``pip install ./clients/python`` into a fresh virtual environment in
a temporary directory, then import the installed package (with its ``py.typed`` marker) from there.
The project is copied first, so the build leaves nothing behind in the repository."""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]


def test_pip_install_into_a_clean_venv():
    with tempfile.TemporaryDirectory(prefix="queryd-py-pack-") as work:
        venv = Path(work) / "venv"
        project = Path(work) / "python"
        shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "tests"))
        # Offline when this Python has the build backend (setuptools and wheel): the venv sees them.
        # Otherwise pip fetches the backend from the package index into its isolated build.
        probe_backend = subprocess.run([sys.executable, "-c", "import setuptools, wheel"], capture_output=True)
        has_backend = probe_backend.returncode == 0
        options = ["--system-site-packages"] if has_backend else []
        subprocess.run([sys.executable, "-m", "venv", *options, str(venv)], check=True)
        python = str(venv / "bin" / "python")
        offline = ["--no-index", "--no-build-isolation"] if has_backend else []
        install = subprocess.run(
            [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *offline, str(project)],
            capture_output=True, text=True, cwd=work,
        )
        assert install.returncode == 0, install.stdout + install.stderr
        probe = (
            "import pathlib, queryd_client, queryd_client.sync as s; "
            "print(queryd_client.__version__, (pathlib.Path(queryd_client.__file__).parent / 'py.typed').exists(), "
            "'site-packages' in queryd_client.__file__, queryd_client.LimitExceeded.__name__)"
        )
        shown = subprocess.run([python, "-c", probe], capture_output=True, text=True, cwd=work, check=True)
        assert shown.stdout.split() == ["0.1.0", "True", "True", "LimitExceeded"]
