"""Starts `cognito-local pool` processes for the tests: built binaries, real HTTP on 127.0.0.1, real triggers."""
import json
import os
import pathlib
import subprocess
import tempfile
import time

import boto3
import pytest
from botocore.config import Config

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("BUILD_DIR", ROOT / ".build" / "debug"))
POOL_ID = "us-east-1_EXAMPLE"
CLIENT_ID = "3example0client0id0abc123"
# How the triggers run: in this process, or in the built bootstrap behind a local Runtime API.
TRANSPORTS = {"in-process": [], "bootstrap": ["--bootstrap", str(BUILD / "bootstrap")]}


class LocalPool:
    """One running pool: its URL, a boto3 client for it, and the outbox its codes go to."""

    def __init__(self, transport, flow="email-code", args=(), env=None):
        binary = BUILD / "cognito-local"
        if not binary.exists():
            pytest.fail(f"{binary} is missing: run `swift build` first")
        self.directory = tempfile.TemporaryDirectory(prefix="local-pool-")
        self.outbox = pathlib.Path(self.directory.name) / "outbox.jsonl"
        environment = dict(os.environ, OUTBOX_PATH=str(self.outbox), CHALLENGE_FLOW=flow, NO_COLOR="1")
        environment.update(env or {})
        self.log = open(pathlib.Path(self.directory.name) / "pool.log", "w+")
        self.process = subprocess.Popen(
            [str(binary), "pool", "--port", "0", *TRANSPORTS[transport], *args],
            cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("Listening on "):
            self.stop()
            pytest.fail(f"the pool did not start: {line!r}\n{self.log_text()}")
        self.url = line.split()[-1]
        api_line = self.process.stdout.readline()
        if not api_line.startswith("HTTP API on "):
            self.stop()
            pytest.fail(f"the pool did not start its HTTP API: {api_line!r}\n{self.log_text()}")
        self.api_url = api_line.split()[-1]
        self.issuer = f"{self.url}/{POOL_ID}"
        self.client = boto3.client(
            "cognito-idp", endpoint_url=self.url, region_name="us-east-1", aws_access_key_id="local",
            aws_secret_access_key="local", config=Config(retries={"max_attempts": 1}))

    def codes(self, user_name="jane"):
        """Every code delivered to `user_name`, oldest first."""
        if not self.outbox.exists():
            return []
        messages = [json.loads(line) for line in self.outbox.read_text().splitlines() if line.strip()]
        return [message["code"] for message in messages if message["userName"] == user_name]

    def latest_code(self, user_name="jane"):
        codes = self.codes(user_name)
        assert codes, f"no code was delivered to {user_name}"
        return codes[-1]

    def log_text(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.log.close()
        self.directory.cleanup()


@pytest.fixture(scope="module")
def pools():
    """A factory of pools, one per distinct configuration, stopped when the module ends."""
    started = {}

    def pool(transport="in-process", flow="email-code", args=(), env=None):
        key = (transport, flow, tuple(args), tuple(sorted((env or {}).items())))
        if key not in started:
            started[key] = LocalPool(transport, flow, args, env)
        return started[key]

    yield pool
    for running in started.values():
        running.stop()


@pytest.fixture(params=sorted(TRANSPORTS))
def transport(request):
    return request.param


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keeps each phase's report on the test item, so fixtures can tell a failed test at teardown."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)
