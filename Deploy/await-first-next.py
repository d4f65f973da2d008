#!/usr/bin/env python3
"""Start a Lambda bootstrap against a stand-in Runtime API and time its first GET /next.

The stand-in listens on a free port of 127.0.0.1. The bootstrap runs with AWS_LAMBDA_RUNTIME_API
pointing there and an environment like the one Lambda's provided.al2023 gives a function (plus this
project's configuration), optionally inside a chroot. When the first
GET /2018-06-01/runtime/invocation/next arrives, it prints on stdout

    first-next-ms <milliseconds from just before the exec to the request>

ends the bootstrap and exits 0. Any other request (an init error, say) is shown on stderr and answered
with 202. Exits 1 if the bootstrap exits or the timeout passes first, 3 if --drop-caches is refused.
"""
import argparse
import os
import select
import signal
import socket
import subprocess
import sys
import time

NEXT = "/2018-06-01/runtime/invocation/next"

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


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chroot", metavar="ROOT", help="run the bootstrap with ROOT as its /")
    parser.add_argument("--env", metavar="NAME=VALUE", action="append", default=[],
                        help="set or override one variable of the bootstrap's environment")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait (default 10)")
    parser.add_argument("--drop-caches", action="store_true",
                        help="sync and drop the page cache just before the exec (needs root)")
    parser.add_argument("--quiet", action="store_true", help="discard the bootstrap's output")
    parser.add_argument("command", nargs="+", help="the bootstrap and its arguments (a path inside ROOT with --chroot)")
    return parser.parse_args()


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
    except TimeoutError:
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
    except TimeoutError:
        pass
    return method, path, body


def main():
    arguments = parse_arguments()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    address = "127.0.0.1:%d" % listener.getsockname()[1]

    environment = dict(LAMBDA_ENVIRONMENT, AWS_LAMBDA_RUNTIME_API=address)
    for assignment in arguments.env:
        name, separator, value = assignment.partition("=")
        if not separator:
            sys.exit("--env wants NAME=VALUE, got %r" % assignment)
        environment[name] = value

    def enter_root():
        os.chroot(arguments.chroot)
        os.chdir("/")

    if arguments.drop_caches:
        try:
            os.sync()
            with open("/proc/sys/vm/drop_caches", "w") as control:
                control.write("3\n")
        except OSError as error:
            print("cannot drop the page cache: %s" % error, file=sys.stderr)
            return 3

    output = subprocess.DEVNULL if arguments.quiet else sys.stderr
    started = time.monotonic()
    child = subprocess.Popen(arguments.command, env=environment, stdout=output, stderr=output,
                             cwd=None if arguments.chroot else os.getcwd(),
                             preexec_fn=enter_root if arguments.chroot else None)
    deadline = started + arguments.timeout
    try:
        while True:
            readable, _, _ = select.select([listener], [], [], 0.02)
            if not readable:
                if child.poll() is not None:
                    print("the bootstrap exited with %d before its first GET /next" % child.returncode,
                          file=sys.stderr)
                    return 1
                if time.monotonic() > deadline:
                    print("no GET /next within %.1f s" % arguments.timeout, file=sys.stderr)
                    return 1
                continue
            connection, _ = listener.accept()
            with connection:
                while True:
                    request = read_request(connection, deadline)
                    if request is None:
                        break
                    method, path, body = request
                    if method == "GET" and path == NEXT:
                        print("first-next-ms %.3f" % ((time.monotonic() - started) * 1000.0))
                        return 0
                    print("stand-in Runtime API: %s %s %s" % (method, path, body[:500].decode("utf-8", "replace")),
                          file=sys.stderr)
                    connection.sendall(b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGKILL)
        child.wait()


if __name__ == "__main__":
    sys.exit(main())
