#!/usr/bin/env bash
# Builds the release `bootstrap` and packs Deploy/out/bootstrap.zip for AWS Lambda's provided.al2023
# runtime (x86_64):
#
#   bootstrap                 the stripped executable Lambda execs; its ELF interpreter is
#                             /var/task/lib/ld-linux-x86-64.so.2 and its DT_RPATH is /var/task/lib
#   lib/ld-linux-x86-64.so.2  the C library's loader, and beside it every shared library the binary
#   lib/*.so.*                needs (glibc's libc), taken from this machine
#   captcha-catalog.json      the CAPTCHA catalog: Deploy/captcha-catalog.json, or FILE given with
#                             --captcha-catalog (the template's default CAPTCHA_CATALOG points here)
#   licenses/                 the copyright and licence notices of what the zip ships or links:
#                             libc6, libstdc++6, libgcc-s1 (Debian's copyright files), libssl3 (the
#                             copyright file of the Debian openssl source built, which covers the
#                             static OpenSSL) and curl (its COPYING)
#   BUILDINFO                 Swift, glibc, OpenSSL and curl versions, the git commit (with -dirty when
#                             tracked files differ from it) and the UTC build time
#
# Beside the zip it writes Deploy/out/template.yaml: Deploy/template.yaml with the function's CodeUri
# pointing at that zip, for `sam deploy` and `aws cloudformation package` of the prebuilt zip (the
# template's own CodeUri is the Deploy/ directory, for `sam build`'s makefile build).
#
# libcurl and OpenSSL are linked statically (Deploy/build-libcurl.sh builds the libcurl, and before it
# Deploy/build-openssl.sh a trimmed OpenSSL from Debian's source), so the zip carries no libcurl, libssl
# or libcrypto; so are libstdc++ and libgcc, of which the Swift runtime uses a few kilobytes (their
# shared libraries would add 0.8 MB to the zip), and glibc's libm (libm.so.6 added 0.44 MiB to the zip, its
# functions linked in add 0.09 MiB; Deploy/static-libm-glue.c says what that takes and why it is sound here).
# The Swift code compiles against the headers of the OpenSSL it links, not the installed libssl-dev's (which can
# be an older version than the source apt still offers): package.sh fails when libcrypto.pc does not point at
# them, when they and the linked libcrypto.a differ, or when the build's dependency files or clang modules name
# another opensslv.h.
# The zip has fixed file times and order, and is recompressed with advzip (7-Zip's deflate: the same
# format, about 3.5 % smaller than zip -9); BUILDINFO's build time is SOURCE_DATE_EPOCH when that is set,
# so the same inputs and SOURCE_DATE_EPOCH give the same zip byte for byte.
#
# Beside both it writes steps.json, what the packaged bootstrap prints with --describe (run through the zip's own
# loader and libraries): the steps it registers, which Deploy/deploy.sh checks a flow against.
#
# A bootstrap of your own (a package that depends on this one and calls CognitoTriggerFunction.run(steps:), like
# Examples/TOTPStep) is packaged the same way with --package-path DIR --product NAME: the release build of that
# product in DIR (scratch path DIR/.build-release) becomes the zip's `bootstrap`. Its template.yaml then takes any
# flow written in steps (ChallengeFlow has a pattern instead of the built-in list; deploy.sh checks the flow against
# steps.json), and BUILDINFO names the package and product.
# Usage: Deploy/package.sh [--captcha-catalog FILE] [--package-path DIR --product NAME] [--output-dir DIR]
#        --output-dir DIR   where bootstrap.zip, template.yaml and steps.json go (default Deploy/out)
set -euo pipefail

deploy_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$deploy_dir/common.sh"
repo_dir=$(dirname "$deploy_dir")
task_lib=/var/task/lib
loader=ld-linux-x86-64.so.2
host_loader=/lib64/$loader
max_zip_bytes=$((8 * 1024 * 1024))
libcurl_work=$deploy_dir/work/libcurl
openssl_work=$deploy_dir/work/openssl
# Debian packages whose copyright file goes into licenses/: the shipped glibc, and the libstdc++ and
# libgcc linked statically. The statically linked OpenSSL's goes in as licenses/libssl3 below.
license_packages=(libc6 libstdc++6 libgcc-s1)

usage() { echo "usage: $0 [--captcha-catalog FILE] [--package-path DIR --product NAME] [--output-dir DIR]" >&2; exit 2; }
catalog=$deploy_dir/captcha-catalog.json
package_dir=$repo_dir
product=''
out_dir=$deploy_dir/out
while (($#)); do
    case $1 in
        --captcha-catalog)
            [[ $# -ge 2 && -f $2 ]] || die "--captcha-catalog needs an existing JSON file"
            catalog=$(realpath "$2")
            shift 2
            ;;
        --package-path)
            [[ $# -ge 2 && -f $2/Package.swift ]] || die "--package-path needs a directory holding a Package.swift"
            package_dir=$(realpath "$2")
            shift 2
            ;;
        --product)
            [[ $# -ge 2 && $2 =~ ^[A-Za-z0-9_.-]+$ ]] || die "--product needs the name of an executable product"
            product=$2
            shift 2
            ;;
        --output-dir)
            [[ $# -ge 2 && -n $2 ]] || die "--output-dir needs a directory"
            mkdir -p "$2"
            out_dir=$(realpath "$2")
            shift 2
            ;;
        *) usage ;;
    esac
done
# This package's own bootstrap, or another package's product (which must be named: its bootstrap has no fixed name).
own_bootstrap=1
if [[ $package_dir != "$repo_dir" ]]; then
    [[ -n $product ]] || die "--package-path needs --product: the executable product that is to become bootstrap"
    own_bootstrap=0
elif [[ -n $product && $product != bootstrap ]]; then
    die "--product $product needs --package-path: this package's product is bootstrap"
fi
product=${product:-bootstrap}
scratch=$package_dir/.build-release
# A separate staging directory per product, so that packaging an example leaves this package's staging alone.
stage=$deploy_dir/work/package
((own_bootstrap)) || stage+=-$product
zip_out=$out_dir/bootstrap.zip
template_out=$out_dir/template.yaml
steps_out=$out_dir/steps.json

[[ $(uname -m) == x86_64 ]] || die "this packs an x86_64 Lambda and must run on x86_64 (this is $(uname -m))"
command -v swift >/dev/null || die "swift is not on PATH"
[[ -x $host_loader ]] || die "$host_loader not found: this needs a glibc x86_64 system"
install_missing_packages binutils zip advancecomp

# (a) the static libcurl, and pkg-config files that make SwiftPM link it and OpenSSL statically
pkg_config_path=$("$deploy_dir/build-libcurl.sh" --print-pkg-config-path)

# The OpenSSL headers the Swift code is to compile against (libcrypto.pc's -I) must be those of the libcrypto.a it
# links: the installed libssl-dev's (/usr/include) can be another version (build-openssl.sh builds the newest
# source apt offers when the installed one's is gone).
openssl_include=$openssl_work/prefix/include
openssl_header_text() {
    sed -n 's/^# *define OPENSSL_VERSION_TEXT "\(.*\)"$/\1/p' "$1/openssl/opensslv.h" 2>/dev/null
}
for pc in libcrypto.pc libcurl.pc; do
    grep -qE "^Cflags:.* -I$openssl_include( |$)" "$pkg_config_path/$pc" \
        || die "$pkg_config_path/$pc does not put $openssl_include on the include path; run Deploy/build-libcurl.sh"
done
openssl_headers=$(openssl_header_text "$openssl_include")
openssl_library=$(strings -n 8 "$(realpath "$libcurl_work/static-lib/libcrypto.a")" | grep -m1 -E '^OpenSSL [0-9]+\.[0-9]+\.[0-9]+' || true)
[[ -n $openssl_headers && $openssl_headers == "$openssl_library" ]] \
    || die "the OpenSSL headers in $openssl_include ('$openssl_headers') are not those of the libcrypto.a linked ('$openssl_library')"
system_headers=$(openssl_header_text /usr/include)
if [[ -n $system_headers && $system_headers != "$openssl_headers" ]]; then
    log "note: the installed libssl-dev's headers are '$system_headers', the OpenSSL linked is '$openssl_headers'; the build must use the latter's"
fi

# libstdc++ and libm as static archives (build-libcurl.sh installed the compilers), from a directory searched before
# the system's: its libstdc++.a makes the -lstdc++ of Swift's static-stdlib link take the archive, and its libm.so,
# a linker script, makes the -lm take glibc's libm.a with the glue that archive needs in a dynamically linked
# program (Deploy/static-libm-glue.c). That glue takes a GLIBC_PRIVATE symbol from libc.so.6, which is sound only
# with the libc.so.6 of the very glibc whose libm.a is linked: the zip ships this machine's, so the two Debian
# packages must be of one version.
static_libs=$deploy_dir/work/static-libs
libstdcxx_archive=$(gcc -print-file-name=libstdc++.a)
[[ -f $libstdcxx_archive ]] || die "libstdc++.a not found (gcc -print-file-name); install libstdc++-12-dev"
[[ -f $(gcc -print-file-name=libm.a) ]] || die "libm.a not found (gcc -print-file-name); install libc6-dev"
libc_versions=$(dpkg-query -W -f='${Version}\n' libc6 libc6-dev | sort -u)
[[ $(wc -l <<<"$libc_versions") == 1 ]] \
    || die "libc6 and libc6-dev differ (${libc_versions//$'\n'/, }): the static libm must come from the glibc the zip ships"
mkdir -p "$static_libs"
ln -sfn "$libstdcxx_archive" "$static_libs/libstdc++.a"
# The stand-ins for the Swift runtime's lookup of Unicode character names and for libstdc++'s C++ demangler, which
# the bootstrap never needs (Deploy/runtime-stand-ins.c): linked in below with --wrap.
# Compiled only when the source changed, so that an unchanged glue does not make the bootstrap link again (below).
for glue in static-libm-glue runtime-stand-ins; do
    [[ $static_libs/$glue.o -nt $deploy_dir/$glue.c ]] \
        || gcc -O2 -fPIC -Wall -Wextra -Werror -c "$deploy_dir/$glue.c" -o "$static_libs/$glue.o"
done
if [[ ! $static_libs/libstatic-libm-glue.a -nt $static_libs/static-libm-glue.o ]]; then
    rm -f "$static_libs/libstatic-libm-glue.a"
    ar rcs "$static_libs/libstatic-libm-glue.a" "$static_libs/static-libm-glue.o"
fi
echo "INPUT(-l:libm.a -lstatic-libm-glue)" >"$static_libs/libm.so"

# (b) the release build. The interpreter and DT_RPATH point into the unpacked zip; --disable-new-dtags
# writes DT_RPATH rather than DT_RUNPATH: DT_RPATH also serves the libraries' own dependencies and is
# searched before LD_LIBRARY_PATH, which Lambda sets to directories holding Amazon Linux's glibc.
# lld with packed relative relocations (DT_RELR, which the shipped glibc >= 2.36 reads) leaves out
# about 1 MB of relocation records that the loader would otherwise read at every cold start.
# -static-libgcc and the directory of static archives link the C++ runtime and libm in rather than shipping them.
# --no-export-dynamic undoes the -export-dynamic of Swift's static-stdlib link: it exports every Swift
# symbol (200 KB of .dynsym and .dynstr) for the Swift backtracer, which the zip does not ship, and
# nothing resolves the executable's own symbols at run time.
# The two --wrap put Deploy/runtime-stand-ins.c in place of the one function that reads Unicode's character name
# tables and of the C++ demangler, and so leave 0.57 MiB out of the binary.
log "swift build -c release --product $product in ${package_dir#"$repo_dir"/} (scratch path ${scratch#"$repo_dir"/})"
# --disable-build-manifest-caching: SwiftPM otherwise reuses the build description of an earlier run, with the C
# flags it read from the .pc files then (a scratch path first built against libssl-dev's headers kept compiling
# against them), since neither PKG_CONFIG_PATH nor the .pc files' contents are inputs of that cache.
build_args=(
    -c release --product "$product" --scratch-path "$scratch" --disable-build-manifest-caching
    --static-swift-stdlib --disable-local-rpath "${release_swift_flags[@]}"
    -Xswiftc -use-ld=lld
    -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
    -Xlinker "-L$static_libs"
    -Xlinker "--dynamic-linker=$task_lib/$loader"
    -Xlinker "-rpath=$task_lib"
    -Xlinker --disable-new-dtags
    -Xlinker -z -Xlinker pack-relative-relocs
    -Xlinker --no-export-dynamic
    -Xlinker --wrap=_swift_stdlib_getScalarName -Xlinker --wrap=__cxa_demangle
    -Xlinker "$static_libs/runtime-stand-ins.o"
)
# Clang's module cache does not key modules on include paths: a COpenSSL module built from other headers would be
# reused while its files are unchanged. Drop the cache whenever the C flags or the OpenSSL headers change.
c_flags_stamp=$scratch/deploy-c-flags.stamp
c_flags="$(cat "$pkg_config_path/libcrypto.pc" "$pkg_config_path/libcurl.pc"); $openssl_headers"
if [[ -d $scratch && ( ! -f $c_flags_stamp || $(<"$c_flags_stamp") != "$c_flags" ) ]]; then
    log "the C flags or OpenSSL headers changed since the last build: dropping the clang module cache"
    rm -rf "$scratch"/*/release/ModuleCache "$c_flags_stamp"
fi
binary=$(cd "$package_dir" && PKG_CONFIG_PATH=$pkg_config_path swift build "${build_args[@]}" --show-bin-path)/$product
# SwiftPM does not track the static archives and objects it links: when build-libcurl.sh or build-openssl.sh has
# rebuilt one since the last link, or a glue above was compiled again, remove the old bootstrap so that it is linked
# again.
for archive in "$libcurl_work"/static-lib/*.a "$static_libs"/*.o "$static_libs"/*.a; do
    if [[ -f $binary && $(realpath "$archive") -nt $binary ]]; then
        log "$(basename "$archive") is newer than the last linked bootstrap: linking again"
        rm -f "$binary"
    fi
done
(cd "$package_dir" && PKG_CONFIG_PATH=$pkg_config_path swift build "${build_args[@]}") >&2
[[ -x $binary ]] || die "the build did not produce $binary"
printf '%s' "$c_flags" >"$c_flags_stamp"

# Which opensslv.h the compilers read: the dependency files and clang modules of the build name the headers by
# path. Any other than the linked OpenSSL's fails the build.
mapfile -t headers_read < <(find "$(dirname "$binary")" \( -name '*.d' -o -name '*.pcm' \) -type f \
    -exec grep -aohE '/[A-Za-z0-9._+@~/-]*/openssl/opensslv\.h' {} + 2>/dev/null | sort -u)
foreign=()
for header in "${headers_read[@]}"; do
    [[ $header == "$openssl_include/openssl/opensslv.h" ]] || foreign+=("$header")
done
if ((${#foreign[@]})); then
    rm -f "$binary" "$c_flags_stamp"
    die "the Swift code was compiled against ${foreign[*]}, not $openssl_include/openssl/opensslv.h ('$openssl_headers'), which is the OpenSSL linked; removed the binary, run again (or delete $scratch)"
elif ((${#headers_read[@]} == 0)); then
    log "note: no dependency file or module in $(dirname "$binary") names opensslv.h; the headers compiled against are unconfirmed"
else
    log "the Swift code compiled against $openssl_include ($openssl_headers), the OpenSSL it links"
fi

interpreter=$(readelf --program-headers "$binary" | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
[[ $interpreter == "$task_lib/$loader" ]] || die "the binary's interpreter is '$interpreter', not $task_lib/$loader"

# (c) strip it
rm -rf "$stage"
mkdir -p "$stage/lib" "$(dirname "$zip_out")"
strip --strip-all -o "$stage/bootstrap" "$binary"

# (d) the libraries, as this machine's loader resolves them (ldd cannot: the interpreter path does not
# exist here). Lines look like "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)"; the loader's
# own line starts with the interpreter path.
resolved=$("$host_loader" --list "$stage/bootstrap") || die "$host_loader --list failed:"$'\n'"$resolved"
if grep -q 'not found' <<<"$resolved"; then die "unresolved libraries:"$'\n'"$resolved"; fi
if grep -qE 'lib(curl|ssl|crypto|stdc\+\+|gcc_s|m)\.so' <<<"$resolved"; then
    die "the binary links a shared libcurl, OpenSSL, libstdc++, libgcc_s or libm; the static link did not take:"$'\n'"$resolved"
fi
while read -r name arrow path _; do
    [[ $arrow == '=>' ]] || continue # linux-vdso.so.1 is part of the kernel
    [[ $path == /var/task/* ]] && die "$name resolved to $path: remove /var/task from this machine and retry"
    if [[ $name == "$task_lib/$loader" ]]; then name=$loader; fi
    cp -L "$path" "$stage/lib/$name"
done <<<"$resolved"
[[ -f $stage/lib/$loader ]] || die "$host_loader --list did not name the loader:"$'\n'"$resolved"
if [[ -f $catalog ]]; then
    python3 -m json.tool "$catalog" >/dev/null || die "$catalog is not valid JSON"
    cp "$catalog" "$stage/captcha-catalog.json"
else
    log "note: no $catalog, so the zip has no CAPTCHA catalog (the captcha flows need one)"
fi

# (e) licenses/ and BUILDINFO
mkdir -p "$stage/licenses"
for package in "${license_packages[@]}"; do
    notice=/usr/share/doc/$package/copyright
    [[ -s $notice ]] || die "$notice not found: is $package installed?"
    cp "$notice" "$stage/licenses/$package"
done
# The debian/copyright of the openssl source build-openssl.sh built (the file Debian ships as libssl3's).
openssl_notice=$openssl_work/prefix/COPYRIGHT
[[ -s $openssl_notice ]] || die "$openssl_notice not found: Deploy/build-openssl.sh keeps it from the source"
cp "$openssl_notice" "$stage/licenses/libssl3"
# curl's own COPYING, as build-libcurl.sh keeps it from the source it built; else Debian's copyright file.
curl_notice=$libcurl_work/prefix/COPYING
[[ -s $curl_notice ]] || curl_notice=/usr/share/doc/libcurl4-openssl-dev/copyright
[[ -s $curl_notice ]] || die "no licence text for curl: neither $libcurl_work/prefix/COPYING nor $curl_notice"
cp "$curl_notice" "$stage/licenses/curl"

swift_version=$(swift --version 2>/dev/null | sed -n '1s/^.*Swift version //p')
glibc_version="$(getconf GNU_LIBC_VERSION) (Debian libc6 $(dpkg-query -W -f='${Version}' libc6))"
# The version text compiled into the binary says which OpenSSL was linked, whatever is installed now.
openssl_text=$(strings -n 8 "$stage/bootstrap" | grep -m1 -E '^OpenSSL [0-9]+\.[0-9]+\.[0-9]+' || true)
[[ -n $openssl_text ]] || die "no OpenSSL version text in the bootstrap: is OpenSSL linked in?"
[[ $openssl_text == "$openssl_headers" ]] \
    || die "the bootstrap links '$openssl_text' but was to compile against the headers of '$openssl_headers'"
openssl_source=$(sed -n 's/^openssl \([^;]*\);.*/\1/p' "$openssl_work/build.stamp" 2>/dev/null || true)
openssl_version="$openssl_text (static, trimmed; Debian source ${openssl_source:-unknown})"
curl_version=$(sed -n 's/^#define LIBCURL_VERSION "\(.*\)"$/\1/p' "$libcurl_work/prefix/include/curl/curlver.h")
[[ -n $curl_version ]] || die "no LIBCURL_VERSION in $libcurl_work/prefix/include/curl/curlver.h"
curl_source=$(sed -n 's/^curl \([^;]*\);.*/\1/p' "$libcurl_work/build.stamp" 2>/dev/null || true)
if commit=$(git -C "$package_dir" rev-parse HEAD 2>/dev/null); then
    [[ -z $(git -C "$package_dir" status --porcelain --untracked-files=no) ]] || commit+=-dirty
else
    commit="unknown (not a git checkout)"
fi
built=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%dT%H:%M:%SZ)
{
    echo "swift: $swift_version"
    echo "glibc: $glibc_version"
    echo "openssl: $openssl_version"
    echo "curl: $curl_version (static, HTTP and HTTPS only; Debian source ${curl_source:-unknown})"
    ((own_bootstrap)) || echo "product: $product of the package in ${package_dir#"$repo_dir"/}"
    echo "commit: $commit"
    echo "built: $built"
} >"$stage/BUILDINFO"

# (f) the zip, byte for byte the same for the same inputs: fixed times, a sorted file list
find "$stage" -exec touch -h -d '2000-01-01 00:00:00 UTC' {} +
rm -f "$zip_out"
(cd "$stage" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | TZ=UTC zip -q -X -9 "$zip_out" -@)
advzip --quiet --recompress -3 "$zip_out"

zip_bytes=$(stat -c %s "$zip_out")
echo "bootstrap.zip: $zip_out"
awk -v bytes="$zip_bytes" -v max="$max_zip_bytes" \
    'BEGIN { printf "  size: %d bytes (%.2f MiB; limit %d MiB)\n", bytes, bytes / 1048576, max / 1048576 }'
printf '  bootstrap: %d bytes stripped\n' "$(stat -c %s "$stage/bootstrap")"
echo "  lib/:"
(cd "$stage/lib" && for lib in *; do printf '    %-24s %9d bytes\n' "$lib" "$(stat -c %s "$lib")"; done)
echo "  licenses/: $(cd "$stage/licenses" && echo *)"
echo "  BUILDINFO:"
sed 's/^/    /' "$stage/BUILDINFO"
((zip_bytes <= max_zip_bytes)) || die "the zip is over $((max_zip_bytes / 1048576)) MiB"

# (g) the steps the packaged bootstrap registers, as it tells them itself: run through the zip's own loader and
# libraries (its DT_RPATH, /var/task/lib, does not exist here), with --describe, which Lambda never passes.
"$stage/lib/$loader" --library-path "$stage/lib" "$stage/bootstrap" --describe >"$steps_out" \
    || die "the packaged bootstrap cannot describe its steps (--describe): $(cat "$steps_out")"
echo "steps.json: $(python3 "$deploy_dir/flows.py" steps "$steps_out") ($steps_out)"

# (h) the template for this zip: CodeUri is resolved relative to the template's directory. Another package's
# bootstrap registers steps of its own, so its template takes any flow written in steps (deploy.sh checks it).
template_text=$(sed -E 's|^( +CodeUri: ).*$|\1bootstrap.zip|' "$deploy_dir/template.yaml")
[[ $(grep -cE '^ +CodeUri: bootstrap\.zip$' <<<"$template_text") == 1 ]] \
    || die "expected exactly one CodeUri in $deploy_dir/template.yaml"
if ((own_bootstrap)); then
    printf '%s\n' "$template_text" >"$template_out"
else
    python3 "$deploy_dir/flows.py" template "$steps_out" <<<"$template_text" >"$template_out" \
        || die "cannot write $template_out for this bootstrap's steps"
fi
echo "template for this zip: $template_out"
