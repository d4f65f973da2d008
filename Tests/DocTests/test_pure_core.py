"""The function's core (Sources/Function/Core) decides and does no I/O of its own: no file reads, no sleeping, no
clock, no locks and no system random source, except through a value the effects layer injects. docs/architecture.md
says so; this keeps it true."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORE = ROOT / "Sources" / "Function" / "Core"

# A call of any of these in the core is an effect it should be handed instead; a file opened with `open` shows by
# its flags (the core's own `read` and `write` methods share those names with the system calls).
EFFECTS = re.compile(
    r"\b(fopen|fread|nanosleep|usleep|sleep|clock_gettime|gettimeofday|time|getpid|getenv|pthread_\w+"
    r"|RAND_bytes|RAND_priv_bytes|RAND_pseudo_bytes)\s*\(|\bO_(RDONLY|WRONLY|RDWR|CREAT|APPEND)\b")
# Types that stand for those effects: none of them may be made or defaulted in the core.
EFFECT_TYPES = re.compile(r"\b(SystemRandom|MonotonicInstant|Pause|PosixLock|LocalFile|Mutex|FileManager|ProcessInfo)\b")


def code_lines(path):
    """The file's lines without comments and string literals' contents, numbered from 1."""
    for number, line in enumerate(path.read_text().splitlines(), 1):
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line.split("//", 1)[0])
        if code.strip():
            yield number, code


def findings(pattern):
    found = []
    for path in sorted(CORE.rglob("*.swift")):
        for number, code in code_lines(path):
            # A method of the core's own types (`cursor.read(`, `writer.write(`) is not the system call.
            for match in pattern.finditer(code):
                if code[:match.start()].rstrip().endswith("."):
                    continue
                if re.search(r"\bfunc\s*$", code[:match.start()]):
                    continue
                found.append(f"{path.relative_to(ROOT)}:{number}: {code.strip()}")
    return found


def test_the_core_is_read():
    assert len(list(CORE.rglob("*.swift"))) > 50


def test_the_core_makes_no_system_calls_for_effects():
    assert findings(EFFECTS) == []


def test_the_core_neither_makes_nor_defaults_an_effect():
    assert findings(EFFECT_TYPES) == []


def test_the_check_sees_an_effect(tmp_path):
    """The patterns catch what they are for, and pass the core's own methods of the same names."""
    sample = tmp_path / "Sample.swift"
    sample.write_text('let fd = open(path, O_RDONLY)\nlet n = cursor.sleep(4)\nlet r = SystemRandom()\n'
                      '// nanosleep(&t, nil) in a comment\nlet s = "usleep(1)"\n')
    lines = [code for _, code in code_lines(sample)]
    assert [bool(EFFECTS.search(code)) and not code[:EFFECTS.search(code).start()].rstrip().endswith(".")
            for code in lines] == [True, False, False, False]
    assert [bool(EFFECT_TYPES.search(code)) for code in lines] == [False, False, True, False]
