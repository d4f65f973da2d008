#!/usr/bin/env bash
# Builds a minimal static libcurl (HTTP and HTTPS through OpenSSL, nothing else) from Debian's own
# source package, for linking into the Lambda bootstrap, against the trimmed static OpenSSL that
# Deploy/build-openssl.sh builds (it runs that first).
#
# Result, under Deploy/work/libcurl/:
#   prefix/      the installed libcurl: include/curl/*.h and lib/libcurl.a, and curl's COPYING
#   static-lib/  ONLY libcurl.a, libssl.a and libcrypto.a (the trimmed OpenSSL's, in Deploy/work/openssl/)
#   pkgconfig/   libcurl.pc and libcrypto.pc pointing at static-lib/ and at the trimmed OpenSSL's headers.
#                With PKG_CONFIG_PATH naming this directory, SwiftPM takes the CCurl and COpenSSL
#                targets' flags from them, so `-lcurl` and `-lcrypto` find the static archives before the
#                system's shared libraries, and the Swift code compiles against the headers of the
#                OpenSSL it links.
#
# Idempotent: when a build from the same curl source, OpenSSL build and recipe exists, it only
# refreshes static-lib/ and pkgconfig/.
# Usage: Deploy/build-libcurl.sh [--print-pkg-config-path]   (then prints the pkgconfig/ path on stdout)
set -euo pipefail

deploy_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$deploy_dir/common.sh"
work=$deploy_dir/work/libcurl
prefix=$work/prefix
static_lib=$work/static-lib
pkgconfig=$work/pkgconfig
stamp=$work/build.stamp
openssl_work=$deploy_dir/work/openssl

case ${1:-} in
    --print-pkg-config-path) print_path=1 ;;
    '') print_path=0 ;;
    *) echo "usage: $0 [--print-pkg-config-path]" >&2; exit 2 ;;
esac

# Everything but HTTP(S) off. TLS from the trimmed OpenSSL (--with-openssl=its prefix, given below); no
# compression, IDN, PSL, HTTP/2, SSH, LDAP, Kerberos, NTLM (it needs DES, which that OpenSSL leaves out).
# CA certificates: no compiled-in bundle path (Debian's /etc/ssl/certs is not where Amazon Linux keeps
# them); OpenSSL's default verify paths are used instead, and they honour SSL_CERT_FILE / SSL_CERT_DIR.
configure_flags=(
    --disable-shared --enable-static --with-pic
    --without-ca-bundle --without-ca-path --with-ca-fallback
    --without-zlib --without-brotli --without-zstd
    --without-libidn2 --without-libpsl
    --without-nghttp2 --without-ngtcp2 --without-nghttp3 --without-quiche --without-msh3 --without-hyper
    --without-libssh2 --without-libssh --without-wolfssh
    --without-librtmp --without-gssapi --without-libgsasl
    --disable-ldap --disable-ldaps
    --disable-dict --disable-file --disable-ftp --disable-gopher --disable-imap --disable-mqtt
    --disable-pop3 --disable-rtsp --disable-smb --disable-smtp --disable-telnet --disable-tftp
    --disable-ntlm --disable-ntlm-wb --disable-manual --disable-libcurl-option --enable-symbol-hiding
)

# The static archives the bootstrap links, and the pkg-config files that lead the linker to them.
# libcurl.pc lists -lssl -lcrypto after -lcurl: a static archive must come after the ones using it.
write_link_dirs() {
    local curl_version
    curl_version=$(sed -n 's/^#define LIBCURL_VERSION "\(.*\)"$/\1/p' "$prefix/include/curl/curlver.h")
    mkdir -p "$static_lib" "$pkgconfig"
    ln -sfn "$prefix/lib/libcurl.a" "$static_lib/libcurl.a"
    ln -sfn "$openssl_prefix/lib/libssl.a" "$static_lib/libssl.a"
    ln -sfn "$openssl_prefix/lib/libcrypto.a" "$static_lib/libcrypto.a"
    cat >"$pkgconfig/libcurl.pc" <<EOF
Name: libcurl
Description: static libcurl, HTTP and HTTPS over OpenSSL only
Version: $curl_version
Cflags: -I$prefix/include -I$openssl_prefix/include
Libs: -L$static_lib -lcurl -lssl -lcrypto
EOF
    cat >"$pkgconfig/libcrypto.pc" <<EOF
Name: libcrypto
Description: the trimmed static libcrypto of Deploy/build-openssl.sh
Version: $openssl_version
Cflags: -I$openssl_prefix/include
Libs: -L$static_lib -lcrypto
EOF
    if ((print_path)); then echo "$pkgconfig"; fi
}

install_missing_packages build-essential dpkg-dev autoconf automake libtool

# The trimmed OpenSSL first (built once, then reused); curl is configured and linked against it.
openssl_prefix=$("$deploy_dir/build-openssl.sh" --print-prefix)
for archive in libssl.a libcrypto.a; do
    [[ -f $openssl_prefix/lib/$archive ]] || die "$openssl_prefix/lib/$archive not found after build-openssl.sh"
done
openssl_build=$(<"$openssl_work/build.stamp")
openssl_version=$(sed -n 's/^# *define OPENSSL_FULL_VERSION_STR "\(.*\)"$/\1/p' "$openssl_prefix/include/openssl/opensslv.h")
[[ -n $openssl_version ]] || die "no OPENSSL_FULL_VERSION_STR in $openssl_prefix/include/openssl/opensslv.h"

ensure_deb_src
source_version=$(apt-cache showsrc curl 2>/dev/null | awk '/^Version:/ { print $2 }' | sort -V | tail -n1)
[[ -n $source_version ]] || die "apt-cache showsrc curl found no source package; run apt-get update and check the deb-src entry"

# Rebuild when the curl source, the OpenSSL build (its source version and recipe) or this recipe changes.
signature="curl $source_version; $openssl_build; recipe $(sha256sum <"${BASH_SOURCE[0]}" | cut -c1-16)"
if [[ -f $stamp && $(<"$stamp") == "$signature" && -f $prefix/lib/libcurl.a ]]; then
    write_link_dirs
    log "up to date (curl $source_version) in $work"
    exit 0
fi

log "building static libcurl from Debian source curl $source_version"
rm -rf "$work/src" "$prefix" "$static_lib" "$pkgconfig" "$stamp"
mkdir -p "$work/src"
(cd "$work/src" && apt-get source -qq "curl=$source_version" >apt-source.log 2>&1) \
    || die "apt-get source curl=$source_version failed; see $work/src/apt-source.log"
src_dir=$(unpacked_source "$work/src" curl)

build_log=$work/build.log
log "configure + make (log: $build_log)"
(
    cd "$src_dir"
    # The last two patches of Debian's series rename the library for its GnuTLS and NSS flavours;
    # debian/rules pops them for the OpenSSL build, and so do we.
    [[ $(grep -vE '^\s*(#|$)' debian/patches/series | tail -n2 | tr '\n' ' ') == "90_gnutls.patch 99_nss.patch " ]] \
        || { echo "unexpected end of debian/patches/series"; exit 1; }
    patch -R -p1 -s <debian/patches/99_nss.patch
    patch -R -p1 -s <debian/patches/90_gnutls.patch
    # Debian's patches touch configure.ac and Makefile.am: regenerate the build system.
    autoreconf -fi
    CFLAGS="$(dpkg-buildflags --get CFLAGS) -ffunction-sections -fdata-sections" \
    CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)" \
        ./configure --prefix="$prefix" --with-openssl="$openssl_prefix" "${configure_flags[@]}"
    # Only the library and its headers: the curl tool and the manual are not needed.
    make -C lib -j"$(nproc)"
    make -C lib install
    make -C include install
    # curl's licence, for the zip's licenses/ (Deploy/package.sh)
    cp COPYING "$prefix/COPYING"
) >"$build_log" 2>&1 &
await_build $! "libcurl build" "$build_log"

[[ -f $prefix/lib/libcurl.a ]] || die "the build finished without $prefix/lib/libcurl.a; see $build_log"
grep -E '^  (SSL|Protocols|Features):' "$build_log" >&2 || true
write_link_dirs
echo "$signature" >"$stamp"
rm -rf "$work/src"
log "done: $prefix/lib/libcurl.a ($(du -h "$prefix/lib/libcurl.a" | cut -f1))"
