"""schemathesis against the running API with every check and every phase (examples, coverage,
fuzzing, and stateful runs following the document's links), bounded to about a minute. Any failure
fails the test, with schemathesis' report. ``schemathesis.toml`` says where a schema-valid request
may still be refused. The two server-sent event streams are left out: they answer for as long as
the client listens, which a fuzzer cannot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.api.server import ROOT, serve

pytestmark = pytest.mark.long


def test_schemathesis_finds_nothing(tmp_path: Path):
    with serve(tmp_path) as server:
        run = subprocess.run(
            [
                str(Path(sys.executable).with_name("schemathesis")),
                "--config-file",
                str(ROOT / "schemathesis.toml"),
                "run",
                f"{server.url}/api/schema/",
                "--checks",
                "all",
                "--phases",
                "examples,coverage,fuzzing,stateful",
                "--max-examples",
                "10",
                "--seed",
                "1",
                # Server-sent event streams never end by themselves; tests/api's stream tests cover them.
                "--exclude-path-regex",
                "/stream/$",
                "-H",
                f"Authorization: Token {server.token}",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=280,
        )
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
