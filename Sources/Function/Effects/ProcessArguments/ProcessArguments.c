// Swift's `CommandLine.arguments` from the arguments the loader hands to start-up code, for the runtimes linked with
// the static Swift standard library (`bootstrap`, `echo-bootstrap`).
//
// The standard library asks `_swift_stdlib_getUnsafeArgvArgc` for argc and argv. On Linux its own definition finds
// them with a start-up constructor that reads the whole of /proc/self/maps to locate the stack and walks back from
// `environ`: every start, whether anything reads the arguments or not. With the system libcurl's 30 libraries mapped
// that is some 230 lines the kernel formats, about 0.25 ms on the project's machine (docs/benchmark.md). glibc calls
// every start-up constructor with argc, argv and envp, so a constructor can keep them for nothing. Defining both
// symbols of the standard library's object here keeps the linker from taking that object out of libswiftCore.a, and
// so its constructor out of the process. Where the standard library is a shared library (debug builds, the tests),
// it answers from its own copy and these are not used.
#include <stddef.h>
#if defined(__linux__)
#include <features.h>
#endif
#if defined(__GLIBC__)

static int startArgumentCount;
static char **startArguments;
static int overrideArgumentCount;
static char **overrideArguments;
static char *noArguments[] = {NULL};

__attribute__((constructor)) static void keepStartArguments(int argc, char **argv, char **envp) {
    (void)envp;
    startArgumentCount = argc;
    startArguments = argv;
}

// The standard library's declarations (stdlib/public/CommandLineSupport): Swift's calling convention, which for these
// parameters passes and returns them as C does.
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen);
__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc);

__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    if (overrideArguments != NULL) {
        *outArgLen = overrideArgumentCount;
        return overrideArguments;
    }
    if (startArguments != NULL) {
        *outArgLen = startArgumentCount;
        return startArguments;
    }
    *outArgLen = 0;
    return noArguments;
}

__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    overrideArguments = argv;
    overrideArgumentCount = argc;
}

#endif
