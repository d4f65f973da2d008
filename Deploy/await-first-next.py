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
import subprocess
import sys

from runtime_standin import RuntimeStandIn, StandInError


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


def main():
    arguments = parse_arguments()
    environment = []
    for assignment in arguments.env:
        name, separator, value = assignment.partition("=")
        if not separator:
            sys.exit("--env wants NAME=VALUE, got %r" % assignment)
        environment.append((name, value))

    if arguments.drop_caches:
        try:
            os.sync()
            with open("/proc/sys/vm/drop_caches", "w") as control:
                control.write("3\n")
        except OSError as error:
            print("cannot drop the page cache: %s" % error, file=sys.stderr)
            return 3

    stand_in = RuntimeStandIn()
    try:
        stand_in.start(arguments.command, chroot=arguments.chroot, environment=environment,
                       output=subprocess.DEVNULL if arguments.quiet else None)
        print("first-next-ms %.3f" % stand_in.await_next(arguments.timeout))
        return 0
    except StandInError as error:
        print(error, file=sys.stderr)
        return 1
    finally:
        stand_in.close()


if __name__ == "__main__":
    sys.exit(main())
