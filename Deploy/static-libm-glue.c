/* What glibc's static libm (libm.a) expects from the static libc it is made for, given to a dynamically linked
   program, so that Deploy/package.sh links libm in and the zip ships no libm.so.6 (0.44 MiB of the zip).

   This is sound only beside the very glibc whose libm.a it is: libm.a also takes `errno` from libc.so.6 as a
   GLIBC_PRIVATE symbol, and the zip ships this machine's own libc.so.6 and ld.so (the bootstrap's DT_RPATH and
   interpreter point at them), never Amazon Linux's. package.sh checks that the two come from one glibc. */

#include <math.h>

/* libm.a calls libc's internal names of these exact operations; libc.so.6 exports them under their public names.
   (libm.a's _Float128 functions, which Swift cannot call, also want __frexpf128, __ldexpf128 and __scalbnf128,
   which libc.so.6 does not have: a link that pulled one of them in would fail on the undefined name.) */
double __frexp(double x, int *exponent) { return frexp(x, exponent); }
float __frexpf(float x, int *exponent) { return frexpf(x, exponent); }
long double __frexpl(long double x, int *exponent) { return frexpl(x, exponent); }
double __ldexp(double x, int n) { return ldexp(x, n); }
float __ldexpf(float x, int n) { return ldexpf(x, n); }
long double __ldexpl(long double x, int n) { return ldexpl(x, n); }
double __scalbn(double x, int n) { return scalbn(x, n); }
float __scalbnf(float x, int n) { return scalbnf(x, n); }
long double __scalbnl(long double x, int n) { return scalbnl(x, n); }

/* The CPU features a static program's libc fills in before anything else runs. libm.a's IFUNC resolvers read
   them (bytes 0x28 to 0x69 in glibc 2.36) to choose among the FMA, FMA4, AVX and SSE4.1 variants of sin, exp,
   floor and the like; in a dynamically linked program nothing fills them, so the resolvers see no feature and
   choose the baseline x86-64 variants, which glibc builds and tests for every CPU without those extensions. The
   block is larger than glibc's own `struct cpu_features`, and zero. */
_Alignas(64) const unsigned char _dl_x86_cpu_features[1024];
