"""schemathesis against the running API with every check and every phase (examples, coverage,
fuzzing, and stateful runs following the document's links), bounded to about a minute. Any failure
fails the test, with schemathesis' report. ``schemathesis.toml`` says where a schema-valid request
may still be refused. Left out: the two server-sent event streams (they answer for as long as the
client listens, which a fuzzer cannot) and logging out (it would end the run's own token)."""

from __future__ import annotations

import subprocess
import sys
import urllib.request
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
                # A server-sent event stream of a running table ends only with its token; tests/api's
                # stream tests cover them.
                "--exclude-path-regex",
                "/stream/$",
                # Logging out revokes the token the run authenticates with, leaving every later
                # request a 401; tests/api/test_auth_tokens.py covers these three.
                "--exclude-operation-id",
                "logout",
                "--exclude-operation-id",
                "logoutAll",
                "--exclude-operation-id",
                "revokeToken",
                "-H",
                f"Authorization: Token {server.token}",
            ],
            cwd=tmp_path,  # its cache (.schemathesis/) stays out of the repository
            capture_output=True,
            text=True,
            timeout=280,
        )
        # The run was authenticated throughout: its token still works at the end.
        request = urllib.request.Request(
            f"{server.url}/api/v1/tables/", headers={"Authorization": f"Token {server.token}"}
        )
        with urllib.request.urlopen(request) as answer:
            assert answer.status == 200
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
