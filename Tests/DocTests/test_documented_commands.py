"""Every command the documentation shows works as written.

Every ```sh, ```bash, ```shell and ```python block of README.md, Deploy/README.md and docs/*.md is run, in order, in
a work folder of its own that holds the repository's top-level entries (linked, or copied where a link would not do),
so that `Events/…` and `.build/debug/bootstrap` resolve and a file a block writes lands in the work folder; with
`.build/debug` first on PATH, as docs/cognito-local.md tells a reader to set it. A block that cannot run here says
why in an HTML comment on the line before it. Such comments (directives, separated by `;`):

  <!-- not run: REASON -->             the block is not run; the reason (the rest of the comment) must be given
  <!-- run in the background -->      a server: started, awaited until it prints "Listening on" (or the TEXT of
                                       `run in the background until it prints TEXT`), and stopped (SIGTERM) after the
                                       file's last block; the blocks after it talk to it
  <!-- exit status N -->               the block must end with status N (0 otherwise)
  <!-- needs PATH (COMMAND) -->        when PATH (a file in the repository, or a program on PATH) does not exist, the
                                       block is not run and a warning names COMMAND, which makes it (.ci/test builds
                                       and installs what the documents need before it runs them)
  <!-- output -->                      before a ```text block: what the code block just before it prints
  <!-- timeout SECONDS -->             the block may run this long (180 s otherwise): a build from scratch

Output (standard output and standard error together) is compared line by line, trailing white space aside: `…`
stands for any text within a line, a line of `…` alone for any number of lines, and every number in the documented
output for any number (timings, codes, ports and ids differ from run to run).
"""
import os
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import warnings

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("BUILD_DIR", ROOT / ".build" / "debug"))
DOCUMENTS = [ROOT / "README.md", ROOT / "Deploy" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUNNABLE = {"sh", "bash", "shell", "python"}
BLOCK_SECONDS = 180
SERVER_START_SECONDS = 60


class Block:
    def __init__(self, document, line, language, text, directives):
        self.document, self.line, self.language, self.text = document, line, language, text
        self.directives = directives
        self.expected_output = None

    @property
    def where(self):
        return f"{self.document.relative_to(ROOT)}:{self.line}"

    def directive(self, name):
        """The value of the directive `name` (`name: value` or `name value`), None when absent."""
        for directive in self.directives:
            if directive == name:
                return ""
            for separator in (":", " "):
                if directive.startswith(name + separator):
                    return directive[len(name) + 1:].strip()
        return None


def blocks(document):
    """The fenced blocks of `document`, each with the directives of the HTML comment on the line before it, and every
    ```text block marked as output attached to the code block before it."""
    lines = document.read_text().splitlines()
    found, index = [], 0
    while index < len(lines):
        fence = re.match(r"^```([\w-]*)\s*$", lines[index])
        if not fence:
            index += 1
            continue
        previous = next((line for line in reversed(lines[:index]) if line.strip()), "")
        comment = re.fullmatch(r"\s*<!--\s*(.*?)\s*-->\s*", previous)
        text = comment.group(1) if comment else ""
        # A reason for not running may hold any text; other directives are separated by ";".
        directives = [text] if text.startswith("not run") else [part.strip() for part in text.split(";") if part.strip()]
        end = next(i for i in range(index + 1, len(lines)) if lines[i].startswith("```"))
        block = Block(document, index + 1, fence.group(1), "\n".join(lines[index + 1:end]) + "\n", directives)
        if block.directive("output") is not None:
            assert found and found[-1].language in RUNNABLE, f"{block.where}: output, but no code block right before it"
            found[-1].expected_output = block.text
        else:
            found.append(block)
        index = end + 1
    return found


def output_pattern(expected):
    """A regular expression over a whole output for the documented `expected` output."""
    parts = []
    for line in expected.rstrip("\n").splitlines():
        if line.strip() == "…":
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        pattern = ""
        for piece in re.split(r"(…|\d+)", line.rstrip()):
            if piece == "…":
                pattern += r"[^\n]*"
            elif piece.isdigit():
                pattern += r"\d+"
            else:
                pattern += re.escape(piece)
        parts.append(pattern + r"[ \t]*\n")
    return "".join(parts)


def matches(expected, actual):
    text = "\n".join(line.rstrip() for line in actual.splitlines()) + "\n"
    return re.fullmatch(output_pattern(expected), text) is not None


class Server:
    """A block run in the background: its output is collected until it is stopped."""

    def __init__(self, block, command, folder, environment):
        self.block = block
        ready = block.directive("run in the background until it prints") or "Listening on"
        self.lines = []
        self.process = subprocess.Popen(
            command, cwd=folder, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL,
            start_new_session=True)
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()
        deadline = time.monotonic() + SERVER_START_SECONDS
        while not any(ready in line for line in self.lines):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"{block.where}: the server did not start:\n{self.output}")
            time.sleep(0.05)

    def read(self):
        for line in self.process.stdout:
            self.lines.append(line)

    @property
    def output(self):
        return "".join(self.lines)

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.reader.join(timeout=5)


def command(block):
    if block.language == "python":
        return ["python3", "-c", block.text]
    return ["bash", "-e", "-o", "pipefail", "-c", block.text]


# Copied rather than linked: `cognito-local check Events` walks the folder, and a walk does not enter a link.
COPIED = {"Events"}


def work_folder():
    """A temporary folder holding a link to (or a copy of) each of the repository's top-level entries but .git."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="doc-commands-"))
    for entry in ROOT.iterdir():
        if entry.name in COPIED:
            shutil.copytree(entry, folder / entry.name)
        elif entry.name != ".git":
            (folder / entry.name).symlink_to(entry)
    return folder


def available(thing):
    """True when `thing` is a file of the repository or a program on PATH."""
    return (ROOT / thing).exists() or shutil.which(thing) is not None


def check(block, status, output):
    """The problems with one block's run, as messages."""
    expected_status = int(block.directive("exit status") or 0)
    problems = []
    if status != expected_status:
        problems.append(f"exit status {status}, expected {expected_status}")
    if block.expected_output is not None and not matches(block.expected_output, output):
        problems.append(f"its output is not the documented one:\n--- documented\n{block.expected_output}--- printed\n{output}")
    return [f"{block.where}: {problem}" for problem in problems]


def run_document(document):
    """Runs every unmarked block of `document`; returns the problems found, and how many blocks ran."""
    runnable = [block for block in blocks(document) if block.language in RUNNABLE]
    folder = work_folder()
    environment = dict(os.environ, PATH=f"{BUILD}{os.pathsep}{os.environ.get('PATH', '')}")
    servers, problems, ran = [], [], 0
    try:
        for block in runnable:
            if block.directive("not run") is not None:
                continue
            needs = block.directive("needs")
            if needs and not available(needs.split(" ", 1)[0]):
                warnings.warn(f"{block.where} was not run: it needs {needs}")
                continue
            ran += 1
            if block.directive("run in the background") is not None:
                servers.append(Server(block, command(block), folder, environment))
                continue
            limit = int(block.directive("timeout") or BLOCK_SECONDS)
            try:
                finished = subprocess.run(
                    command(block), cwd=folder, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                    text=True, timeout=limit, stdin=subprocess.DEVNULL)
            except subprocess.TimeoutExpired as timeout:
                problems.append(f"{block.where}: still running after {limit} s:\n{timeout.output}")
                continue
            problems += check(block, finished.returncode, finished.stdout)
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    for server in servers:
        if server.block.expected_output is not None and not matches(server.block.expected_output, server.output):
            problems.append(
                f"{server.block.where}: the server's output is not the documented one:\n--- documented\n"
                f"{server.block.expected_output}--- printed\n{server.output}")
    return problems, ran


def document_id(document):
    return str(document.relative_to(ROOT))


@pytest.mark.parametrize("document", DOCUMENTS, ids=document_id)
def test_every_block_is_run_or_says_why_not(document):
    known = ("not run", "run in the background", "exit status", "needs", "timeout")
    for block in blocks(document):
        for directive in block.directives:
            assert block.language in RUNNABLE, f"{block.where}: a directive before a ```{block.language} block"
            assert any(directive == name or directive.startswith(name) for name in known), \
                f"{block.where}: unknown directive {directive!r}"
        reason = block.directive("not run")
        assert reason is None or reason, f"{block.where}: `not run` must say why"
        if block.directive("exit status") is not None:
            assert block.directive("exit status").isdigit(), f"{block.where}: `exit status` needs a number"


@pytest.mark.parametrize("document", DOCUMENTS, ids=document_id)
def test_documented_commands_work_as_written(document):
    binary = BUILD / "cognito-local"
    if not binary.exists():
        pytest.fail(f"{binary} is missing: run `swift build` first")
    problems, _ = run_document(document)
    assert not problems, "\n\n".join(problems)


def test_output_matching():
    assert matches("took 2.11 ms\n", "took 13.5 ms\n")
    assert matches("a\n…\nz\n", "a\nb\nc\nz\n")
    assert matches("a\n…\nz\n", "a\nz\n")
    assert matches("id …, done\n", "id 3f-x, done  \n")
    assert not matches("took 2.11 ms\n", "took 2.11 s\n")
    assert not matches("a\nz\n", "a\nb\nz\n")
    assert not matches("signed in\n", "failed\n")
