#!/usr/bin/env python3
"""Instructions and heap allocations per warm invocation of the packaged bootstrap, for each trigger, checked
against the thresholds file of this Swift toolchain.

    Tests/Performance/invocation_counts.py            measure and check (what .ci/test runs)
    Tests/Performance/invocation_counts.py --print    measure and print the figures as a thresholds file

The bootstrap is the one Deploy/package.sh staged (Deploy/work/package: the zip's binary, run through the loader and
libraries staged beside it). For each trigger it runs under valgrind twice, once with SHORT and once with LONG warm
invocations of that trigger's event after one Create (whose code the Verify events answer), and divides the
difference of the two runs' totals by LONG - SHORT: start-up, the first invocation and shutdown cancel out.
Instructions come from callgrind, allocations from memcheck's heap summary. Both are deterministic up to a few
instructions (random codes, times), so a rise beyond the tolerance is a change in the code, not noise.

A figure more than 2 % over its threshold fails, naming both. Raising a threshold is a one-line change in
Tests/Performance/thresholds/swift-MAJOR.MINOR.json, for review like any other; a figure well under it is reported
so that the threshold can be lowered.
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "Deploy"))
from runtime_standin import RuntimeStandIn  # noqa: E402

STAGE = os.path.join(REPO, "Deploy", "work", "package")
EVENTS = os.path.join(REPO, "Events", "email-code")
TOLERANCE = 0.02
SHORT, LONG = 20, 120
# Each answer of the stand-in waits this long, so that the bootstrap (slowed down some fifty times by valgrind) is
# always waiting in poll when it comes: otherwise how many times libcurl polls and reads depends on the two processes'
# speeds, a few thousand instructions per invocation on a loaded machine.
ANSWER_DELAY = 0.01
TRIGGERS = {
    "Define": "01-define-start.json",
    "Create": "02-create-code.json",
    "Verify": "03-verify-right-code.json",
}
ENVIRONMENT = {
    "CHALLENGE_FLOW": "email-code",
    "CODE_DELIVERY": "outbox",
    "CODE_HASH_SECRET": "invocation-counts-secret-0123456789abcdef",
    # The standard library's hash seed is otherwise random per process: dictionaries would probe differently.
    "SWIFT_DETERMINISTIC_HASHING": "1",
}


def fail(message):
    print("invocation counts: " + message, file=sys.stderr)
    sys.exit(1)


def swift_version():
    text = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout
    found = re.search(r"Swift version (\d+)\.(\d+)", text)
    if not found:
        fail("cannot read the Swift version from `swift --version`")
    return "%s.%s" % found.groups()


def load(name):
    with open(os.path.join(EVENTS, name)) as file:
        return json.load(file)


def run(tool, trigger, warm, scratch):
    """The total the tool reports for one bootstrap run: one Create, then WARM invocations of TRIGGER's event."""
    outbox = os.path.join(scratch, "outbox-%s-%s-%d.jsonl" % (tool, trigger, warm))
    report = os.path.join(scratch, "%s-%s-%d.out" % (tool, trigger, warm))
    if tool == "callgrind":
        options = ["--tool=callgrind", "--callgrind-out-file=" + report, "--log-file=" + report + ".log"]
    else:
        options = ["--tool=memcheck", "--leak-check=no", "--log-file=" + report]
    command = ["valgrind"] + options + [
        os.path.join(STAGE, "lib", "ld-linux-x86-64.so.2"), "--library-path", os.path.join(STAGE, "lib"),
        os.path.join(STAGE, "bootstrap")]
    stand_in = RuntimeStandIn(answer_delay=ANSWER_DELAY)
    log = open(os.path.join(scratch, "bootstrap-%s-%s-%d.log" % (tool, trigger, warm)), "w")
    try:
        stand_in.start(command, environment=dict(ENVIRONMENT, OUTBOX_PATH=outbox), output=log)
        kind, created = stand_in.invoke(load(TRIGGERS["Create"]), timeout=120)
        if kind != "response":
            fail("the first Create failed: %s" % created)
        event = load(TRIGGERS[trigger])
        if trigger == "Verify":
            with open(outbox) as file:
                code = json.loads(file.read().splitlines()[-1])["code"]
            event["request"]["privateChallengeParameters"] = json.loads(created)["response"]["privateChallengeParameters"]
            event["request"]["challengeAnswer"] = code
        for _ in range(warm):
            kind, body = stand_in.invoke(event, timeout=60)
            if kind != "response":
                fail("%s failed: %s" % (trigger, body))
            if trigger == "Verify" and json.loads(body)["response"]["answerCorrect"] is not True:
                fail("the Verify event's code was not taken: %s" % body)
        # SIGTERM ends the loop cleanly, so that valgrind writes its report.
        stand_in.await_next(60)
        stand_in.child.send_signal(signal.SIGTERM)
        if stand_in.child.wait(timeout=120) != 0:
            fail("the bootstrap under %s exited with %d (log: %s)" % (tool, stand_in.child.returncode, log.name))
    finally:
        stand_in.close()
        log.close()
    with open(report) as file:
        text = file.read()
    if tool == "callgrind":
        found = re.search(r"^summary: (\d+)$", text, re.MULTILINE) or re.search(r"^totals: (\d+)$", text, re.MULTILINE)
    else:
        found = re.search(r"total heap usage: ([\d,]+) allocs", text)
    if not found:
        fail("no total in %s's report %s" % (tool, report))
    return int(found.group(1).replace(",", ""))


def measure():
    if not os.access(os.path.join(STAGE, "bootstrap"), os.X_OK):
        fail("%s/bootstrap is not there: run Deploy/package.sh first" % STAGE)
    figures = {"instructions per warm invocation": {}, "allocations per warm invocation": {}}
    with tempfile.TemporaryDirectory(prefix="invocation-counts-") as scratch:
        for trigger in TRIGGERS:
            for tool, key in (("callgrind", "instructions per warm invocation"),
                              ("memcheck", "allocations per warm invocation")):
                short, long = run(tool, trigger, SHORT, scratch), run(tool, trigger, LONG, scratch)
                figures[key][trigger] = round((long - short) / (LONG - SHORT))
    return figures


def main():
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1] != "--print"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    version = swift_version()
    thresholds_path = os.path.join(HERE, "thresholds", "swift-%s.json" % version)
    figures = measure()
    if len(sys.argv) == 2:
        print(json.dumps(figures, indent=4))
        return
    if not os.path.exists(thresholds_path):
        fail("no thresholds for Swift %s: write these figures to %s after review:\n%s"
             % (version, os.path.relpath(thresholds_path, REPO), json.dumps(figures, indent=4)))
    with open(thresholds_path) as file:
        thresholds = json.load(file)
    lines, over = compare(figures, thresholds)
    print("\n".join(lines))
    if over:
        fail("over the thresholds in %s:\n  %s\nIf the rise is intended, raise the threshold in that file in the same change."
             % (os.path.relpath(thresholds_path, REPO), "\n  ".join(over)))
    print("invocation counts: within %d %% of %s" % (TOLERANCE * 100, os.path.relpath(thresholds_path, REPO)))


def compare(figures, thresholds):
    """A line per figure beside its threshold, and what is over (more than TOLERANCE above it, or without one)."""
    lines, over = [], []
    for key, triggers in figures.items():
        for trigger, figure in triggers.items():
            threshold = thresholds.get(key, {}).get(trigger)
            if threshold is None:
                over.append("%s, %s: %d, and the thresholds file has no figure for it" % (key, trigger, figure))
                continue
            note = ""
            if figure > threshold * (1 + TOLERANCE):
                over.append("%s, %s: %d, %+.1f %% over the threshold %d (tolerance %d %%)"
                            % (key, trigger, figure, 100.0 * (figure / threshold - 1), threshold, TOLERANCE * 100))
                note = "  OVER"
            elif figure < threshold * (1 - 5 * TOLERANCE):
                note = "  (well under: the threshold can be lowered)"
            lines.append("%-34s %-7s %10d  threshold %10d%s" % (key, trigger, figure, threshold, note))
    return lines, over


if __name__ == "__main__":
    main()
