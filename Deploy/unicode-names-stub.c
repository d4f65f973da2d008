/* Stands in for the Swift runtime's _swift_stdlib_getScalarName in the zip's bootstrap (Deploy/package.sh links it
   with --wrap=_swift_stdlib_getScalarName), so that the link leaves out the Unicode character name tables only that
   function reads: 0.53 MiB of the binary, 0.21 MiB of the zip. Its one caller in the standard library is the getter
   of Unicode.Scalar.Properties.name, which no code of the bootstrap asks for; should some code ask, the bootstrap
   says so and stops rather than answering without the name. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

intptr_t __wrap__swift_stdlib_getScalarName(uint32_t scalar, uint8_t *buffer, intptr_t capacity) {
    (void)buffer;
    (void)capacity;
    fprintf(stderr,
            "fatal: Unicode.Scalar.Properties.name (asked of U+%04X) is not linked into this bootstrap: Deploy/package.sh "
            "leaves out Unicode's name tables (Deploy/unicode-names-stub.c)\n",
            (unsigned)scalar);
    abort();
}
