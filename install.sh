#!/bin/sh
# Installs chainrun (and chainrun-otel, its trace-export companion) from a
# release, for this machine's OS and architecture:
#
#   curl -fsSL https://raw.githubusercontent.com/chainrun/chainrun/main/install.sh | sh
#   curl -fsSL …/install.sh | sh -s -- -v 1.4.0 -b ~/bin
#
# Options:
#   -v VERSION  the release to install (1.4.0 or v1.4.0; default: latest)
#   -b DIR      where the binaries go (default: /usr/local/bin when it is
#               writable, else ~/.local/bin)
#   -t          the Temporal build (chainrun-temporal_… archives)
#   -r          print the version -v resolves to (latest: the newest
#               release's), install nothing
#
# The archive's SHA-256 is checked against the release's checksums.txt
# before anything is unpacked, and checksums.txt's cosign signature when
# cosign is installed; on a mismatch, a bad signature, a missing entry or
# a failed download nothing is installed and the exit status is 1. Releases are
# fetched from CHAINRUN_INSTALL_BASE_URL (default
# https://github.com/chainrun/chainrun/releases), laid out as GitHub lays
# them out: BASE/download/vVERSION/FILE and BASE/latest/download/FILE, so
# a mirror or a test server can stand in for GitHub.
set -eu

base=${CHAINRUN_INSTALL_BASE_URL:-https://github.com/chainrun/chainrun/releases}
base=${base%/}
version=latest
bindir=
flavour=chainrun
resolve_only=false

say() { echo "chainrun install: $*" >&2; }
fail() {
  say "$*"
  exit 1
}
usage() {
  sed -n '2,/^set -eu/p' "$0" 2>/dev/null | sed -n 's/^# \{0,1\}//p' >&2 || true
  exit 2
}

while getopts "v:b:trh" opt; do
  case $opt in
  v) version=$OPTARG ;;
  b) bindir=$OPTARG ;;
  t) flavour=chainrun-temporal ;;
  r) resolve_only=true ;;
  *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || {
  say "unexpected argument: $1 (options: -v VERSION -b DIR -t -r)"
  exit 2
}
version=${version#v}

case $(uname -s) in
Linux) os=linux ;;
Darwin) os=darwin ;;
MINGW* | MSYS* | CYGWIN*) os=windows ;;
*) fail "no release for this OS: $(uname -s) (linux, darwin and windows have one; or: go install github.com/chainrun/chainrun@latest)" ;;
esac
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) fail "no release for this architecture: $(uname -m) (amd64 and arm64 have one; or: go install github.com/chainrun/chainrun@latest)" ;;
esac
ext=tar.gz
exe=
if [ "$os" = windows ]; then
  ext=zip
  exe=.exe
fi

# fetch URL FILE: the body of URL into FILE; fails on any HTTP error
fetch() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 3 -o "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    fail "neither curl nor wget is installed"
  fi
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 "$1" | sed 's/.*= *//'
  else
    fail "no SHA-256 tool (sha256sum, shasum or openssl) to verify the download with"
  fi
}

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t chainrun)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ "$version" = latest ]; then
  sums_url="$base/latest/download/checksums.txt"
else
  sums_url="$base/download/v$version/checksums.txt"
fi
fetch "$sums_url" "$tmp/checksums.txt" ||
  fail "no release $version: $sums_url could not be downloaded"

# The release workflow signs checksums.txt keylessly with cosign (a
# Sigstore bundle beside it). With cosign installed the bundle must verify
# as signed by that workflow at a tag; without cosign it is not checked,
# and the install says so. CHAINRUN_INSTALL_REQUIRE_SIGNATURE=true refuses
# to install without a verified signature.
require_sig=${CHAINRUN_INSTALL_REQUIRE_SIGNATURE:-false}
if fetch "$sums_url.sigstore.json" "$tmp/checksums.txt.sigstore.json" 2>/dev/null; then
  if command -v cosign >/dev/null 2>&1; then
    cosign verify-blob --bundle "$tmp/checksums.txt.sigstore.json" \
      --certificate-identity-regexp '^https://github\.com/chainrun/chainrun/\.github/workflows/release\.yml@refs/tags/v' \
      --certificate-oidc-issuer https://token.actions.githubusercontent.com \
      "$tmp/checksums.txt" >"$tmp/cosign.log" 2>&1 ||
      fail "checksums.txt: its signature ($sums_url.sigstore.json) does not verify: $(tail -n 1 "$tmp/cosign.log"); nothing was installed"
    say "checksums.txt: signature verified (cosign)"
  elif [ "$require_sig" = true ]; then
    fail "checksums.txt is signed but cosign is not installed to verify it (CHAINRUN_INSTALL_REQUIRE_SIGNATURE=true); nothing was installed"
  else
    say "checksums.txt is signed; install cosign to have its signature verified too (the SHA-256 is checked either way)"
  fi
elif [ "$require_sig" = true ]; then
  fail "checksums.txt has no signature at $sums_url.sigstore.json (CHAINRUN_INSTALL_REQUIRE_SIGNATURE=true); nothing was installed"
fi

# the line of this platform's archive: "SHA256  NAME_VERSION_OS_ARCH.EXT"
line=$(grep -E "^[0-9a-f]{64}  ${flavour}_[^_ ]+_${os}_${arch}\.${ext}\$" "$tmp/checksums.txt" | head -n 1 || true)
[ -n "$line" ] || fail "release $version has no ${flavour} archive for $os/$arch in $sums_url"
want=${line%% *}
archive=${line##* }
resolved=${archive#"${flavour}_"}
resolved=${resolved%%_*}
if [ "$version" != latest ] && [ "$resolved" != "$version" ]; then
  fail "$sums_url lists $archive, not version $version"
fi
if [ "$resolve_only" = true ]; then
  echo "$resolved"
  exit 0
fi

url="$base/download/v$resolved/$archive"
fetch "$url" "$tmp/$archive" || fail "$url could not be downloaded"
got=$(sha256 "$tmp/$archive")
[ "$got" = "$want" ] ||
  fail "$archive: SHA-256 $got does not match checksums.txt ($want); nothing was installed"

mkdir "$tmp/x"
if [ "$ext" = zip ]; then
  unzip -q "$tmp/$archive" -d "$tmp/x" || fail "$archive could not be unpacked"
else
  tar -xzf "$tmp/$archive" -C "$tmp/x" || fail "$archive could not be unpacked"
fi
for b in chainrun chainrun-otel; do
  [ -f "$tmp/x/$b$exe" ] || fail "$archive holds no $b$exe; nothing was installed"
done

if [ -z "$bindir" ]; then
  if [ -w /usr/local/bin ] || [ "$(id -u)" = 0 ]; then
    bindir=/usr/local/bin
  else
    bindir=$HOME/.local/bin
  fi
fi
mkdir -p "$bindir" || fail "cannot make $bindir (choose another directory with -b DIR)"
# each binary is copied beside its place and renamed over it, so a
# running chainrun is never overwritten half-way
for b in chainrun chainrun-otel; do
  cp "$tmp/x/$b$exe" "$bindir/.$b$exe.new" && chmod 0755 "$bindir/.$b$exe.new" &&
    mv -f "$bindir/.$b$exe.new" "$bindir/$b$exe" ||
    fail "cannot write $bindir/$b$exe (choose another directory with -b DIR)"
done
say "installed chainrun $resolved ($os/$arch) in $bindir: chainrun$exe, chainrun-otel$exe"
case ":${PATH:-}:" in
*":$bindir:"*) ;;
*) say "$bindir is not on PATH: add it (export PATH=\"$bindir:\$PATH\")" ;;
esac
