"""A stand-in for Lambda's Runtime API on 127.0.0.1, and the bootstrap it serves (optionally inside a chroot), for
the scripts beside this file: await-first-next.py times the start, sign-in-smoke.py drives a sign-in through it.

The bootstrap runs with AWS_LAMBDA_RUNTIME_API pointing at the stand-in and an environment like the one Lambda's
provided.al2023 gives a function (plus this project's configuration). Requests other than GET /next and an
invocation's answer (an init error, say) are shown on stderr and answered with 202.
"""
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time

NEXT = "/2018-06-01/runtime/invocation/next"
INVOCATION = "/2018-06-01/runtime/invocation/"

# What provided.al2023 sets for a function (values from Lambda's documentation; credentials and
# names are stand-ins), and the configuration template.yaml gives this project's function.
LAMBDA_ENVIRONMENT = {
    "PATH": "/usr/local/bin:/usr/bin/:/bin:/opt/bin",
    "LD_LIBRARY_PATH": "/var/lang/lib:/lib64:/usr/lib64:/var/runtime:/var/runtime/lib:/var/task:/var/task/lib:/opt/lib",
    "LANG": "en_US.UTF-8",
    "TZ": ":UTC",
    "LAMBDA_TASK_ROOT": "/var/task",
    "LAMBDA_RUNTIME_DIR": "/var/runtime",
    "_HANDLER": "bootstrap",
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_EXECUTION_ENV": "AWS_Lambda_provided.al2023",
    "AWS_LAMBDA_FUNCTION_NAME": "cognito-challenge",
    "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
    "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "256",
    "AWS_LAMBDA_LOG_GROUP_NAME": "/aws/lambda/cognito-challenge",
    "AWS_LAMBDA_LOG_STREAM_NAME": "2000/01/01/[$LATEST]00000000000000000000000000000000",
    "AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE",
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "AWS_SESSION_TOKEN": "stand-in-session-token",
    "AWS_LAMBDA_LOG_FORMAT": "Text",
    "CHALLENGE_FLOW": "email-code",
    "CODE_LENGTH": "6",
    "MAX_ATTEMPTS": "3",
    "CODE_DELIVERY": "ses",
    "SES_FROM_ADDRESS": "no-reply@example.com",
    "CODE_HASH_SECRET": "stand-in-secret-for-local-runs-only-0123456789",
}


def read_request(connection, deadline):
    """Reads one request: (method, path, body), or None if the peer closed or the deadline passed."""
    data = b""
    connection.settimeout(max(deadline - time.monotonic(), 0.01))
    try:
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                return None
            data += chunk
    except (TimeoutError, ConnectionError):
        return None
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, path, _ = lines[0].split(" ", 2)
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    try:
        while len(body) < length:
            chunk = connection.recv(65536)
            if not chunk:
                break
            body += chunk
    except (TimeoutError, ConnectionError):
        pass
    return method, path, body


class StandInError(Exception):
    """The bootstrap exited, or did not ask in time."""


class RuntimeStandIn:
    """The listening stand-in; start() runs the bootstrap against it."""

    def __init__(self, answer_delay=0.0):
        """ANSWER_DELAY seconds pass before each answer, so that the bootstrap is always waiting for it, as it is for
        Lambda's: its instructions per invocation then do not depend on how fast the two processes ran."""
        self.answer_delay = answer_delay
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.address = "127.0.0.1:%d" % self.listener.getsockname()[1]
        self.connections = []
        self.waiting = None  # the connection whose GET /next is not answered yet
        self.child = None
        self.started = None
        self.invocations = 0

    def start(self, command, chroot=None, environment=(), output=None):
        """Runs COMMAND (a path inside CHROOT when given) with the Lambda environment, ENVIRONMENT's (name, value)
        pairs on top; its standard output and error go to OUTPUT (default: this process's standard error)."""
        variables = dict(LAMBDA_ENVIRONMENT, AWS_LAMBDA_RUNTIME_API=self.address)
        variables.update(environment)

        def enter_root():
            os.chroot(chroot)
            os.chdir("/")

        output = sys.stderr if output is None else output
        self.started = time.monotonic()
        self.child = subprocess.Popen(command, env=variables, stdout=output, stderr=output,
                                      cwd=None if chroot else os.getcwd(), preexec_fn=enter_root if chroot else None)

    def _next_request(self, deadline, waiting_for):
        """(connection, method, path, body) of the next request; raises StandInError when the bootstrap exits or
        the deadline passes first."""
        while True:
            readable, _, _ = select.select([self.listener] + self.connections, [], [], 0.02)
            if not readable:
                if self.child.poll() is not None:
                    raise StandInError("the bootstrap exited with %d before %s" % (self.child.returncode, waiting_for))
                if time.monotonic() > deadline:
                    raise StandInError("no %s in time" % waiting_for)
                continue
            for ready in readable:
                if ready is self.listener:
                    connection, _ = self.listener.accept()
                    self.connections.append(connection)
                    continue
                request = read_request(ready, deadline)
                if request is None:
                    self.connections.remove(ready)
                    ready.close()
                    continue
                return (ready,) + request

    def _answer(self, connection, status, body=b"", headers=()):
        if self.answer_delay:
            time.sleep(self.answer_delay)
        head = "HTTP/1.1 %s\r\nContent-Length: %d\r\n" % (status, len(body))
        head += "".join("%s: %s\r\n" % header for header in headers)
        connection.sendall(head.encode("latin-1") + b"\r\n" + body)

    def await_next(self, timeout):
        """Waits for a GET /next and leaves it unanswered; returns the milliseconds since start()."""
        deadline = time.monotonic() + timeout
        while self.waiting is None:
            connection, method, path, body = self._next_request(deadline, "GET /next")
            if method == "GET" and path == NEXT:
                self.waiting = connection
                break
            print("stand-in Runtime API: %s %s %s" % (method, path, body[:500].decode("utf-8", "replace")),
                  file=sys.stderr)
            self._answer(connection, "202 Accepted")
        return (time.monotonic() - self.started) * 1000.0

    def invoke(self, event, timeout=10.0):
        """Hands EVENT (JSON-serializable) to the bootstrap's GET /next; returns ("response", body) or
        ("error", body) as it answers."""
        self.await_next(timeout)
        self.invocations += 1
        request_id = "00000000-0000-4000-8000-%012d" % self.invocations
        deadline_ms = int(time.time() * 1000) + 4000
        payload = json.dumps(event).encode()
        connection, self.waiting = self.waiting, None
        self._answer(connection, "200 OK", payload, [
            ("Content-Type", "application/json"),
            ("Lambda-Runtime-Aws-Request-Id", request_id),
            ("Lambda-Runtime-Deadline-Ms", str(deadline_ms)),
            ("Lambda-Runtime-Invoked-Function-Arn",
             "arn:aws:lambda:us-east-1:123456789012:function:cognito-challenge:live"),
            ("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000;Sampled=0"),
        ])
        deadline = time.monotonic() + timeout
        prefix = INVOCATION + request_id + "/"
        while True:
            connection, method, path, body = self._next_request(deadline, "an answer to invocation " + request_id)
            if method == "GET" and path == NEXT:
                raise StandInError("the bootstrap asked for the next invocation without answering " + request_id)
            self._answer(connection, "202 Accepted")
            if method == "POST" and path in (prefix + "response", prefix + "error"):
                return path[len(prefix):], body.decode("utf-8", "replace")
            print("stand-in Runtime API: %s %s %s" % (method, path, body[:500].decode("utf-8", "replace")),
                  file=sys.stderr)

    def close(self):
        """Ends the bootstrap (SIGKILL, as Lambda does) and the stand-in."""
        if self.child is not None:
            if self.child.poll() is None:
                self.child.send_signal(signal.SIGKILL)
            self.child.wait()
        for connection in self.connections:
            connection.close()
        self.connections = []
        self.listener.close()
