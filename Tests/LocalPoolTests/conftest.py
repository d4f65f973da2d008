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
# libfaketime (Debian package faketime), where Sources/Tools/Invoker/Corpus/FakeTime.swift looks for it.
FAKETIME = next((path for path in (
    "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1", "/usr/local/lib/faketime/libfaketime.so.1",
) if os.path.exists(path)), None)


class MovableClock:
    """A clock the test moves instead of sleeping: processes started with `environment()` preload libfaketime, which
    reads the offset from a file at every call (FAKETIME_NO_CACHE), so `advance(seconds)` moves their wall clock at
    once. The bootstrap a pool starts inherits the pool's environment, and with it the same clock.

    The monotonic clocks keep running unmoved (their timeouts stay real) unless `monotonic` is true: the pool's
    sign-in sessions expire on Swift's ContinuousClock, so a test of that moves the monotonic clocks too, and with
    them every timeout of that pool (fine for a pool the test has to itself)."""

    def __init__(self, monotonic=False):
        self.monotonic = monotonic
        self.offset = 0
        self.directory = tempfile.TemporaryDirectory(prefix="movable-clock-")
        self.file = pathlib.Path(self.directory.name) / "faketime"
        self._write()
        self.pools = []

    def start(self, pool_class, *arguments):
        """A pool on this clock, the test's own (shared with no other test), stopped with the clock."""
        pool = pool_class(*arguments, clock=self)
        self.pools.append(pool)
        return pool

    def environment(self):
        environment = {"LD_PRELOAD": FAKETIME, "FAKETIME_TIMESTAMP_FILE": str(self.file), "FAKETIME_NO_CACHE": "1"}
        if not self.monotonic:
            environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        return environment

    def advance(self, seconds):
        """Moves the clock forward by whole `seconds` (libfaketime's relative offset "+N" counts seconds)."""
        assert seconds == int(seconds) and seconds > 0, f"whole seconds forward, not {seconds!r}"
        self.offset += int(seconds)
        self._write()

    def _write(self):
        # Replaced in one step, so that a process reading it meanwhile sees the old offset or the new, never half.
        staged = self.file.with_suffix(".new")
        staged.write_text(f"+{self.offset}\n")
        os.replace(staged, self.file)

    def close(self):
        for pool in self.pools:
            pool.stop()
        self.directory.cleanup()


class LocalPool:
    """One running pool: its URL, a boto3 client for it, and the outbox its codes go to."""

    def __init__(self, transport, flow="email-code", args=(), env=None, clock=None):
        binary = BUILD / "cognito-local"
        if not binary.exists():
            pytest.fail(f"{binary} is missing: run `swift build` first")
        self.directory = tempfile.TemporaryDirectory(prefix="local-pool-")
        self.outbox = pathlib.Path(self.directory.name) / "outbox.jsonl"
        environment = dict(os.environ, OUTBOX_PATH=str(self.outbox), CHALLENGE_FLOW=flow, NO_COLOR="1")
        environment.update(env or {})
        command = [str(binary), "pool", "--port", "0", *TRANSPORTS[transport], *args]
        self.clock = clock
        if clock is not None:
            environment.update(clock.environment())
            # libfaketime 0.9.10 adds FAKETIME_SHARED to the environment of the first process it is preloaded into,
            # from its constructor; a Swift program (6.3, Linux) whose environment grows there starts with no
            # arguments (`cognito-local` alone prints its usage). /usr/bin/env takes that first load and passes
            # FAKETIME_SHARED on, as the faketime wrapper does, then becomes the pool (exec, same process): the pool
            # and its bootstrap find the variable already set.
            command = ["/usr/bin/env", *command]
        self.log = open(pathlib.Path(self.directory.name) / "pool.log", "w+")
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("Listening on "):
            log = self.log_text()
            self.stop()
            pytest.fail(f"the pool did not start: {line!r}\n{log}")
        self.url = line.split()[-1]
        api_line = self.process.stdout.readline()
        if not api_line.startswith("HTTP API on "):
            log = self.log_text()
            self.stop()
            pytest.fail(f"the pool did not start its HTTP API: {api_line!r}\n{log}")
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
        if self.clock is not None:
            # The semaphore and shared memory libfaketime made in /usr/bin/env, which the pool (not their maker
            # after exec) leaves behind.
            for name in (f"sem.faketime_sem_{self.process.pid}", f"faketime_shm_{self.process.pid}"):
                pathlib.Path("/dev/shm", name).unlink(missing_ok=True)


@pytest.fixture(scope="module")
def pools():
    """A factory of pools, one per distinct configuration, stopped when the module ends. `own=True` starts a pool
    no other test shares, for a test whose wrong answers would otherwise count against the next tests' sign-ins (after
    the second wrong answer in the window, a user's next answer waits a second, then two, ...)."""
    started = {}
    owned = []

    def pool(transport="in-process", flow="email-code", args=(), env=None, clock=None, own=False):
        if clock is not None:
            return clock.start(LocalPool, transport, flow, args, env)
        if own:
            owned.append(LocalPool(transport, flow, args, env))
            return owned[-1]
        key = (transport, flow, tuple(args), tuple(sorted((env or {}).items())))
        if key not in started:
            started[key] = LocalPool(transport, flow, args, env)
        return started[key]

    yield pool
    for running in [*started.values(), *owned]:
        running.stop()


@pytest.fixture
def clock():
    """A MovableClock for the pools a test starts with `pools(..., clock=clock)`, stopped at the test's end (the
    wall clock; `clock.monotonic = True` before starting them moves the monotonic clocks too). The test skips when
    libfaketime is missing."""
    if FAKETIME is None:
        pytest.skip("libfaketime is missing (apt-get install faketime; .ci/setup --test installs it)")
    movable = MovableClock()
    yield movable
    movable.close()


@pytest.fixture(params=sorted(TRANSPORTS))
def transport(request):
    return request.param


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keeps each phase's report on the test item, so fixtures can tell a failed test at teardown."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)
