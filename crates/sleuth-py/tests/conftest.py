import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(Path(__file__).parent))


def sleuth_binary() -> Path:
    """The `sleuth` program the Python package is checked against: $SLEUTH_BIN,
    else the workspace's debug build (`cargo build -p sleuth-cli`). Missing,
    it fails the tests that need it: they are never skipped."""
    path = Path(os.environ.get("SLEUTH_BIN", REPO / "target" / "debug" / "sleuth"))
    if not path.is_file():
        pytest.fail(f"{path} is missing: build it with `cargo build -p sleuth-cli` or set SLEUTH_BIN")
    return path


@pytest.fixture
def cli():
    binary = sleuth_binary()

    def run(*args, input=None):
        return subprocess.run([str(binary), *map(str, args)], capture_output=True, text=True, input=input)

    return run


@pytest.fixture
def cli_json(cli):
    def run(*args):
        out = cli(*args)
        assert out.stdout, out.stderr
        return json.loads(out.stdout)

    return run


@pytest.fixture
def repo():
    return REPO
