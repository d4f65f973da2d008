/* Stand-ins for two functions of the Swift runtime's static link that the zip's bootstrap never needs, so that the
   link leaves out what only they use. Deploy/package.sh puts each in place of the original with lld's --wrap. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* _swift_stdlib_getScalarName reads Unicode's character name tables: 0.53 MiB of the binary, 0.21 MiB of the zip.
   Its one caller in the standard library is the getter of Unicode.Scalar.Properties.name, which no code of the
   bootstrap asks for; should some code ask, the bootstrap says so and stops rather than answering without the name. */
intptr_t __wrap__swift_stdlib_getScalarName(uint32_t scalar, uint8_t *buffer, intptr_t capacity) {
    (void)buffer;
    (void)capacity;
    fprintf(stderr,
            "fatal: Unicode.Scalar.Properties.name (asked of U+%04X) is not linked into this bootstrap: Deploy/package.sh "
            "leaves out Unicode's name tables (Deploy/runtime-stand-ins.c)\n",
            (unsigned)scalar);
    abort();
}

/* __cxa_demangle, libstdc++'s C++ demangler (45 KB of the binary, 20 KB of the zip), turns the C++ symbol names of
   a crash report into declarations. The stripped bootstrap, which exports no symbols, has no such names to give it,
   so this one answers as the real one does for a name that is not a C++ mangled name (status -2), and the callers
   print the name as it is. */
char *__wrap___cxa_demangle(const char *mangled, char *buffer, size_t *length, int *status) {
    (void)mangled;
    (void)buffer;
    (void)length;
    if (status != NULL) *status = -2;
    return NULL;
}
