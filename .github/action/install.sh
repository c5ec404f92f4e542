#!/usr/bin/env bash
# The "install" step of action.yml: puts the release binaries (chainrun
# and chainrun-otel) of VERSION on the job's PATH, through the runner's
# tool cache: $RUNNER_TOOL_CACHE/chainrun/VERSION/ARCH, marked complete by
# a file beside it (ARCH.complete, as actions/tool-cache marks its
# entries), so a later job on the same runner installs nothing. A miss
# installs with the repository's install.sh, which checks the archive's
# SHA-256 against the release's checksums.txt before unpacking anything.
#
# Its environment: VERSION (a release, 1.4.0 or v1.4.0, or latest: the
# newest release's version is looked up, so the cache holds versions,
# never "latest"), and what GitHub sets: RUNNER_TOOL_CACHE, RUNNER_ARCH,
# RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT. CHAINRUN_INSTALL_BASE_URL
# (install.sh) points at a mirror. Outputs: version, cache-hit, path.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
version=${VERSION:-latest}
version=${version#v}
case ${RUNNER_ARCH:-X64} in
X64) arch=amd64 ;;
ARM64) arch=arm64 ;;
*)
  echo "::error title=chainrun::no chainrun release for runner architecture ${RUNNER_ARCH} (X64 and ARM64 have one)"
  exit 1
  ;;
esac
if [ -z "$version" ] || [ "$version" = latest ]; then
  version=$(sh "$root/install.sh" -r)
fi
cache=${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tool-cache}/chainrun/$version/$arch
if [ -f "$cache.complete" ] && { [ -x "$cache/chainrun" ] || [ -x "$cache/chainrun.exe" ]; }; then
  hit=true
  echo "chainrun $version ($arch) from the tool cache: $cache" >&2
else
  hit=false
  rm -rf "$cache" "$cache.complete"
  sh "$root/install.sh" -v "$version" -b "$cache"
  touch "$cache.complete"
fi
echo "$cache" >>"$GITHUB_PATH"
{
  echo "version=$version"
  echo "cache-hit=$hit"
  echo "path=$cache"
} >>"$GITHUB_OUTPUT"
