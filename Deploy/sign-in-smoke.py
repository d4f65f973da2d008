#!/usr/bin/env python3
"""Signs a user in through a bootstrap's Define, Create and Verify triggers, as Cognito would call them, against the
stand-in Runtime API (runtime_standin.py), optionally inside a chroot.

  --step totp   CHALLENGE_FLOW=totp, the TOTP example's step (Examples/TOTPStep): the user carries a fresh base32
                secret in custom:totp_secret, and the answers are RFC 6238 codes computed here, independently of the
                step's own code

The sign-in: Define with an empty session asks for CUSTOM_CHALLENGE; Create answers with the step's public
parameters (digits 6, period 30) and private ones; Verify takes the current code and refuses a wrong one; Define
after the right answer issues tokens. Prints one line per trigger and exits 0 when every answer is as it must be, 1
otherwise, showing the bootstrap's output on stderr then.

Usage: Deploy/sign-in-smoke.py --step totp [--chroot ROOT] [--env NAME=VALUE]... [--timeout SECONDS] -- BOOTSTRAP [ARGUMENTS...]
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import struct
import sys
import tempfile
import time

from runtime_standin import RuntimeStandIn, StandInError

POOL = "us-east-1_EXAMPLE"
USER = "jane"
CLIENT = "3example0client0id0abc123"


def totp(secret, at, digits=6, period=30):
    """RFC 6238 (HMAC-SHA1) at Unix time AT."""
    mac = hmac.new(secret, struct.pack(">Q", int(at) // period), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    value = struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF
    return str(value % 10 ** digits).zfill(digits)


def event(trigger, request):
    return {
        "version": "1", "region": "us-east-1", "userPoolId": POOL, "userName": USER,
        "callerContext": {"awsSdkVersion": "aws-sdk-unknown-unknown", "clientId": CLIENT},
        "triggerSource": trigger, "request": request,
        "response": {},
    }


class Failed(Exception):
    pass


def sign_in_with_totp(stand_in, timeout):
    secret = os.urandom(20)
    attributes = {
        "sub": "5f1c7e2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b", "email": "jane.doe@example.com", "email_verified": "true",
        "cognito:user_status": "CONFIRMED", "custom:totp_secret": base64.b32encode(secret).decode().rstrip("="),
    }

    def call(trigger, request):
        outcome, body = stand_in.invoke(event(trigger, request), timeout)
        if outcome != "response":
            raise Failed("%s: the bootstrap answered with an error: %s" % (trigger, body))
        try:
            return json.loads(body)["response"]
        except (ValueError, KeyError, TypeError):
            raise Failed("%s: the answer is not a trigger response: %s" % (trigger, body[:300]))

    def expect(what, found, wanted):
        if found != wanted:
            raise Failed("%s: %r, expected %r" % (what, found, wanted))

    defined = call("DefineAuthChallenge_Authentication",
                   {"userAttributes": attributes, "session": [], "userNotFound": False})
    expect("Define, empty session: challengeName", defined.get("challengeName"), "CUSTOM_CHALLENGE")
    expect("Define, empty session: issueTokens", bool(defined.get("issueTokens")), False)
    print("Define: CUSTOM_CHALLENGE")

    created = call("CreateAuthChallenge_Authentication", {
        "userAttributes": attributes, "challengeName": "CUSTOM_CHALLENGE", "session": [], "userNotFound": False})
    public = created.get("publicChallengeParameters") or {}
    expect("Create: the public digits and period", (public.get("digits"), public.get("period")), ("6", "30"))
    private = created.get("privateChallengeParameters")
    metadata = created.get("challengeMetadata")
    if not private or not metadata:
        raise Failed("Create: no private parameters or metadata: %s" % created)
    print("Create: public parameters %s, metadata %s" % (json.dumps(public, sort_keys=True), metadata.split(":")[0]))

    def verify(answer):
        verified = call("VerifyAuthChallengeResponse_Authentication", {
            "userAttributes": attributes, "privateChallengeParameters": private, "challengeAnswer": answer,
            "userNotFound": False})
        return verified.get("answerCorrect")

    now = time.time()
    near = {totp(secret, now + offset * 30) for offset in (-1, 0, 1)}
    wrong = next(code for code in ("%06d" % ((int(totp(secret, now)) + n) % 10 ** 6) for n in range(1, 10))
                 if code not in near)
    expect("Verify a wrong code: answerCorrect", verify(wrong), False)
    expect("Verify the current code: answerCorrect", verify(totp(secret, time.time())), True)
    print("Verify: the current code is right, another is wrong")

    issued = call("DefineAuthChallenge_Authentication", {
        "userAttributes": attributes, "userNotFound": False,
        "session": [{"challengeName": "CUSTOM_CHALLENGE", "challengeResult": True, "challengeMetadata": metadata}]})
    expect("Define after the right code: issueTokens", issued.get("issueTokens"), True)
    print("Define: issue tokens")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--step", choices=["totp"], required=True, help="the step whose sign-in to drive")
    parser.add_argument("--chroot", metavar="ROOT", help="run the bootstrap with ROOT as its /")
    parser.add_argument("--env", metavar="NAME=VALUE", action="append", default=[],
                        help="set or override one variable of the bootstrap's environment")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for each answer (default 10)")
    parser.add_argument("command", nargs="+", help="the bootstrap and its arguments (a path inside ROOT with --chroot)")
    arguments = parser.parse_args()
    environment = [("CHALLENGE_FLOW", arguments.step)]
    for assignment in arguments.env:
        name, separator, value = assignment.partition("=")
        if not separator:
            parser.error("--env wants NAME=VALUE, got %r" % assignment)
        environment.append((name, value))

    stand_in = RuntimeStandIn()
    with tempfile.TemporaryFile() as output:
        try:
            stand_in.start(arguments.command, chroot=arguments.chroot, environment=environment,
                           output=output)
            sign_in_with_totp(stand_in, arguments.timeout)
            return 0
        except (StandInError, Failed) as error:
            print("the sign-in failed: %s" % error)
            stand_in.close()
            output.seek(0)
            sys.stderr.write(output.read().decode("utf-8", "replace"))
            return 1
        finally:
            stand_in.close()


if __name__ == "__main__":
    sys.exit(main())
