"""The bootstrap `cognito-local` starts inherits none of its listening sockets, and so does not outlive it: killed,
`cognito-local` leaves no bootstrap waiting on an inherited Runtime API listener for ever."""
import os
import pathlib
import signal
import subprocess
import tempfile
import time
import urllib.request

import pytest

from conftest import BUILD, ROOT

EVENT = (ROOT / "Events" / "email-code" / "01-define-start.json").read_bytes()


def children_of(pid):
    found = []
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def socket_inodes(pid):
    """The inodes of the sockets `pid` holds open."""
    inodes = set()
    for fd in pathlib.Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    return inodes


def listening_inodes():
    """The inodes of every TCP socket listening on this machine."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in pathlib.Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":
                inodes.add(fields[9])
    return inodes


@pytest.mark.parametrize("command", ["serve", "pool"])
def test_killed_cognito_local_leaves_no_bootstrap(command):
    with tempfile.TemporaryDirectory(prefix="child-process-") as directory:
        environment = dict(os.environ, OUTBOX_PATH=str(pathlib.Path(directory) / "outbox.jsonl"), NO_COLOR="1")
        parent = subprocess.Popen(
            [str(BUILD / "cognito-local"), command, "--port", "0", "--bootstrap", str(BUILD / "bootstrap")],
            cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        children = []
        try:
            url = parent.stdout.readline().split()[-1]
            if command == "serve":
                request = urllib.request.Request(f"{url}/2015-03-31/functions/function/invocations", data=EVENT,
                                                 headers={"Content-Type": "application/json"})
            else:
                request = urllib.request.Request(f"{url}/", data=b'{"AuthFlow": "CUSTOM_AUTH", "ClientId": "3example0client0id0abc123", "AuthParameters": {"USERNAME": "jane"}}', headers={
                    "X-Amz-Target": "AWSCognitoIdentityProviderService.InitiateAuth",
                    "Content-Type": "application/x-amz-json-1.1"})
            with urllib.request.urlopen(request, timeout=30) as response:
                assert response.status == 200
            children = children_of(parent.pid)
            assert len(children) == 1, "the bootstrap runs"
            bootstrap = children[0]

            held = socket_inodes(bootstrap)
            assert held, "the bootstrap holds its own connection to the Runtime API"
            assert not held & socket_inodes(parent.pid), "no socket of cognito-local reaches the bootstrap"
            assert not held & listening_inodes(), "the bootstrap holds no listening socket"
            assert sorted(int(fd) for fd in os.listdir(f"/proc/{bootstrap}/fd"))[:3] == [0, 1, 2]

            parent.send_signal(signal.SIGKILL)
            parent.wait(timeout=10)
            deadline = time.monotonic() + 5
            while os.path.exists(f"/proc/{bootstrap}") and not is_zombie(bootstrap) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not os.path.exists(f"/proc/{bootstrap}") or is_zombie(bootstrap), \
                "the bootstrap ends when cognito-local is killed"
        finally:
            if parent.poll() is None:
                parent.kill()
                parent.wait()
            parent.stdout.close()
            for child in children:
                try:
                    os.kill(child, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def is_zombie(pid):
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return False
