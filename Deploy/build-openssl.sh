#!/usr/bin/env bash
# Builds a trimmed static OpenSSL (libssl.a and libcrypto.a) from Debian's own source package, for
# linking into the Lambda bootstrap through Deploy/build-libcurl.sh.
#
# Debian's libssl-dev archives carry every algorithm OpenSSL 3.0 has, and its default provider pulls
# them all into the link (3.3 MB of libcrypto.a in the bootstrap). This build keeps what HTTPS to AWS
# and the Swift code need: a TLS 1.2 and 1.3 client, AES (GCM, CBC and the rest), ChaCha20-Poly1305,
# SHA-1, SHA-2 and SHA-3, HMAC, RSA (PKCS #1 and PSS), EC on the prime curves (ECDSA, ECDH), X25519 and
# X448, the DRBG, X.509 verification, PEM and PKCS #8, and big numbers. It leaves out SSL 3, TLS 1.0 and
# 1.1, DTLS, the legacy ciphers and digests (and RIPEMD-160), DH, DSA, SM2/3/4, GOST, binary curves,
# AES-OCB, CMAC and AES-SIV, scrypt, CMS, CT, OCSP (curl uses it only for CURLOPT_SSL_VERIFYSTATUS,
# which the code does not set), RFC 3779 certificate extensions, time stamps, CMP, SRP, PSK and NPN in
# TLS, TLS multi-block writes, async jobs, engines and loadable modules, and the openssl command.
# The C code is compiled with -Os (the assembly that does the bulk crypto is unaffected), and with
# -ffunction-sections -fdata-sections so that the link's --gc-sections drops unused functions.
# P-256 is computed by OpenSSL's constant-time 64-bit C implementation (enable-ec_nistp_64_gcc_128) rather than
# the x86-64 assembly of ecp_nistz256, which carries a 150 KB table of multiples of the generator that deflate
# cannot shrink: 0.13 MiB off the zip. A P-256 operation takes about twice as long (ECDSA verify 80 -> 180 us,
# ECDH 120 -> 250 us, key generation 30 -> 60 us on the build machine): a passkey's ES256 signature, and a TLS
# handshake only where the server picks P-256 (the client offers X25519 first). The source's crypto/ec/build.info
# is edited to leave the assembly out; X25519's assembly stays.
#
# OPENSSLDIR stays Debian's /usr/lib/ssl, so the default verify paths are those of Debian's libssl
# (and SSL_CERT_FILE / SSL_CERT_DIR override them, as before).
#
# The source: `apt-get source openssl` at the version of the installed libssl-dev when the deb-src
# entries still list it, else the newest version they list that can be fetched. Debian's patches
# apply on unpack; Debian's build recipe (debian/rules) is not used.
#
# The installed libssl-dev's headers (/usr/include/openssl) are NOT those of this build when apt no longer offers
# that version's source (Debian's archive keeps only the newest): the Swift code must compile against prefix/include
# (Deploy/build-libcurl.sh's libcrypto.pc), never /usr/include. This script fails when prefix/include and
# libcrypto.a differ (verify_prefix), and Deploy/package.sh fails when the bootstrap was compiled against others.
#
# Result, under Deploy/work/openssl/:
#   prefix/      include/openssl/*.h (with the trimmed configuration.h), lib/libssl.a, lib/libcrypto.a,
#                and the source's debian/copyright as COPYRIGHT (for the zip's licenses/libssl3)
#   build.stamp  "openssl VERSION; recipe HASH": the source version built and this script's hash
#
# Idempotent: when a build from a source version apt still lists and this recipe exists, it does nothing.
# Usage: Deploy/build-openssl.sh [--print-prefix]   (then prints the prefix/ path on stdout)
set -euo pipefail

deploy_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$deploy_dir/common.sh"
work=$deploy_dir/work/openssl
prefix=$work/prefix
stamp=$work/build.stamp

case ${1:-} in
    --print-prefix) print_prefix=1 ;;
    '') print_prefix=0 ;;
    *) echo "usage: $0 [--print-prefix]" >&2; exit 2 ;;
esac

# OpenSSL 3.0 has no no-apps or no-docs; build_libs below builds neither.
configure_flags=(
    linux-x86_64 no-shared no-tests
    no-legacy no-engine no-dso no-module no-comp no-ui-console
    no-ssl3 no-tls1 no-tls1_1 no-dtls no-srtp no-sctp no-psk no-srp
    no-gost no-des no-idea no-rc2 no-rc4 no-rc5 no-md2 no-md4 no-mdc2 no-seed no-camellia no-aria
    no-sm2 no-sm3 no-sm4 no-whirlpool no-blake2 no-siphash no-cast no-bf
    no-dsa no-dh no-ec2m no-ocb no-cmac no-siv no-scrypt no-rmd160
    no-cms no-ts no-cmp no-ct no-ocsp no-rfc3779 no-nextprotoneg no-multiblock no-async
    enable-ec_nistp_64_gcc_128
    --prefix="$prefix" --libdir=lib --openssldir=/usr/lib/ssl
    -Os -ffunction-sections -fdata-sections
)
# ENGINESDIR and MODULESDIR (derived from --libdir) are compiled in as text though nothing loads from
# them here; Debian's values keep this checkout's path out of the binary.
make_dirs=(ENGINESDIR=/usr/lib/x86_64-linux-gnu/engines-3 MODULESDIR=/usr/lib/x86_64-linux-gnu/ossl-modules)
recipe=$(sha256sum <"${BASH_SOURCE[0]}" | cut -c1-16)

finish() {
    if ((print_prefix)); then echo "$prefix"; fi
}

# Whether prefix/ holds one OpenSSL: the headers' OPENSSL_VERSION_TEXT is the text compiled into libcrypto.a, and
# their version is the upstream part of the Debian source version built (3.0.20 for 3.0.20-1~deb12u1). The Swift
# code compiles against these headers (Deploy/build-libcurl.sh's libcrypto.pc), so a mismatch would mean code
# compiled for one OpenSSL linked with another. Prints what differs on standard error.
# Usage: verify_prefix DEBIAN_SOURCE_VERSION
verify_prefix() {
    local header=$prefix/include/openssl/opensslv.h header_text header_version library_text upstream
    header_text=$(sed -n 's/^# *define OPENSSL_VERSION_TEXT "\(.*\)"$/\1/p' "$header" 2>/dev/null)
    header_version=$(sed -n 's/^# *define OPENSSL_VERSION_STR "\(.*\)"$/\1/p' "$header" 2>/dev/null)
    library_text=$(strings -n 8 "$prefix/lib/libcrypto.a" 2>/dev/null | grep -m1 -E '^OpenSSL [0-9]+\.[0-9]+\.[0-9]+' || true)
    upstream=${1#*:}
    upstream=${upstream%%-*}
    if [[ -z $header_text || -z $header_version ]]; then
        log "no OPENSSL_VERSION_TEXT / OPENSSL_VERSION_STR in $header"
    elif [[ $header_text != "$library_text" ]]; then
        log "the headers say '$header_text' but libcrypto.a says '${library_text:-nothing}'"
    elif [[ $header_version != "$upstream" ]]; then
        log "the headers are OpenSSL $header_version but the Debian source built is $1 (upstream $upstream)"
    else
        return 0
    fi
    return 1
}

install_missing_packages build-essential dpkg-dev perl binutils
ensure_deb_src

# The versions to try, best first: the installed libssl-dev's, then the others newest first.
installed_version=$(dpkg-query -W -f='${Version}' libssl-dev 2>/dev/null || true)
mapfile -t listed < <(apt-cache showsrc openssl 2>/dev/null | awk '/^Version:/ { print $2 }' | sort -rV | uniq)
((${#listed[@]})) || die "apt-cache showsrc openssl found no source package; run apt-get update and check the deb-src entry"
candidates=()
for version in "${listed[@]}"; do
    if [[ $version == "$installed_version" ]]; then candidates=("$version" "${candidates[@]}"); else candidates+=("$version"); fi
done

# Up to date: a build by this recipe, of a version apt still lists, and of the installed libssl-dev's
# version whenever apt lists that.
if [[ -f $stamp && -f $prefix/lib/libssl.a && -f $prefix/lib/libcrypto.a ]]; then
    built_version=$(sed -n 's/^openssl \([^;]*\);.*/\1/p' "$stamp")
    if [[ $(<"$stamp") == "openssl $built_version; recipe $recipe" && " ${candidates[*]} " == *" $built_version "* ]] \
        && [[ $built_version == "$installed_version" || " ${listed[*]} " != *" $installed_version "* ]]; then
        if verify_prefix "$built_version"; then
            log "up to date (openssl $built_version) in $work"
            finish
            exit 0
        fi
        log "the build in $prefix is inconsistent (above): building again"
    fi
fi

rm -rf "$work/src" "$prefix" "$stamp"
mkdir -p "$work/src"
source_version=
for version in "${candidates[@]}"; do
    if (cd "$work/src" && apt-get source -qq "openssl=$version" >apt-source.log 2>&1); then
        source_version=$version
        break
    fi
    log "apt-get source openssl=$version failed; trying the next version"
    find "$work/src" -mindepth 1 -maxdepth 1 ! -name apt-source.log -exec rm -rf {} +
done
[[ -n $source_version ]] || die "apt-get source openssl failed for ${candidates[*]}; see $work/src/apt-source.log"
[[ $source_version == "$installed_version" ]] \
    || log "note: apt offers no source of the installed libssl-dev (${installed_version:-none}); building $source_version"
src_dir=$(unpacked_source "$work/src" openssl)
# x86-64's EC assembly without ecp_nistz256 (see the top): its line in crypto/ec/build.info, and the define with it.
ec_build_info=$src_dir/crypto/ec/build.info
sed -i -e 's/^\( *\$ECASM_x86_64=\)ecp_nistz256\.c ecp_nistz256-x86_64\.s \(x25519-x86_64\.s\)$/\1\2/' \
    -e 's/^\( *\$ECDEF_x86_64=\)ECP_NISTZ256_ASM \(X25519_ASM\)$/\1\2/' "$ec_build_info"
[[ $(grep -cE '^ *\$EC(ASM|DEF)_x86_64=(x25519-x86_64\.s|X25519_ASM)$' "$ec_build_info") == 2 ]] \
    || die "$ec_build_info does not read as expected: cannot leave ecp_nistz256 out (see $ec_build_info)"

build_log=$work/build.log
log "building trimmed static OpenSSL from Debian source openssl $source_version (log: $build_log)"
(
    cd "$src_dir"
    ./Configure "${configure_flags[@]}"
    # Only the libraries (no openssl command, tests or manual pages), then their headers.
    make -j"$(nproc)" "${make_dirs[@]}" build_libs
    make install_dev
    cp debian/copyright "$prefix/COPYRIGHT"
) >"$build_log" 2>&1 &
await_build $! "OpenSSL build" "$build_log"

for archive in libssl.a libcrypto.a; do
    [[ -f $prefix/lib/$archive ]] || die "the build finished without $prefix/lib/$archive; see $build_log"
done
verify_prefix "$source_version" || die "the headers installed in $prefix/include are not those of the libcrypto.a built"
echo "openssl $source_version; recipe $recipe" >"$stamp"
rm -rf "$work/src"
log "done: $prefix/lib/libcrypto.a ($(du -h "$prefix/lib/libcrypto.a" | cut -f1)), libssl.a ($(du -h "$prefix/lib/libssl.a" | cut -f1))"
finish
