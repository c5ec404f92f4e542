#!/usr/bin/env bash
# The "run" step of action.yml: runs the chain with -o json (the result
# object goes to the log) and writes the step outputs run-id, status,
# exit-code and output to $GITHUB_OUTPUT; the step ends with chainrun's
# exit code, so the job fails when the chain does (a pause, exit 3, too,
# unless ACCEPT_PAUSED=true).
#
# Its environment (action.yml's env:, every value through env: and never
# through ${{ }} inside a script):
#   CHAIN       the chain's name in the chains directory, or a file's path
#   INPUTS      the chain's inputs, one KEY=VALUE a line (blank lines skipped)
#   ARGS        more arguments for `chainrun run`, split on white space
#   INPUT_FILE  a YAML or JSON file of inputs (may be empty)
#   ACCEPT_PAUSED  true: a workflow paused at a decision point ends the step with 0
# chainrun reads CHAINRUN_CHAINS_DIR and CHAINRUN_PASS_EXIT_CODE itself.
set -uo pipefail

if [ -z "${CHAIN:-}" ]; then
  echo "::error title=chainrun::the chain input is empty: name a chain, or a chain file's path"
  exit 2
fi
args=(run "$CHAIN" -o json)
while IFS= read -r line || [ -n "$line" ]; do
  line=${line%$'\r'}
  if [ -n "${line//[[:space:]]/}" ]; then
    args+=(--input "$line")
  fi
done <<<"${INPUTS:-}"
if [ -n "${INPUT_FILE:-}" ]; then
  args+=(--input-file "$INPUT_FILE")
fi
if [ -n "${ARGS:-}" ]; then
  read -r -d '' -a extra <<<"$ARGS" || true
  args+=("${extra[@]}")
fi

# chainrun writes its own step outputs (run_id, status, exit_code and
# output, in GitHub's multi-line form where need be) to a file of ours;
# they are passed on under the action's names below
own=$(mktemp)
trap 'rm -f "$own"' EXIT
code=0
GITHUB_OUTPUT=$own chainrun "${args[@]}" || code=$?

# o_run_id, o_status, o_exit_code, o_output: what chainrun wrote (plain
# variables, no associative array: macOS's bash 3.2 has none)
o_run_id= o_status= o_exit_code= o_output=
while IFS= read -r line; do
  if [[ $line =~ ^(run_id|status|exit_code|output)\<\<(.+)$ ]]; then
    name=${BASH_REMATCH[1]} delim=${BASH_REMATCH[2]} value= first=true
    while IFS= read -r next && [ "$next" != "$delim" ]; do
      if $first; then value=$next first=false; else value+=$'\n'$next; fi
    done
    printf -v "o_$name" '%s' "$value"
  elif [[ $line =~ ^(run_id|status|exit_code|output)=(.*)$ ]]; then
    printf -v "o_${BASH_REMATCH[1]}" '%s' "${BASH_REMATCH[2]}"
  fi
done <"$own"

# nothing ran (a bad flag, chain or input: exit 2) when chainrun wrote no status
status=${o_status:-error}

# put NAME VALUE: one step output, in the multi-line form with a fresh
# random delimiter the value does not hold when it has a line break
put() {
  if [[ $2 == *$'\n'* || $2 == *$'\r'* ]]; then
    local d
    while :; do
      d=ghadelimiter_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
      [[ $2 != *"$d"* ]] && break
    done
    printf '%s<<%s\n%s\n%s\n' "$1" "$d" "$2" "$d" >>"$GITHUB_OUTPUT"
  else
    printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
  fi
}
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  put run-id "$o_run_id"
  put status "$status"
  put exit-code "$code"
  put output "$o_output"
fi

if [ "$code" -eq 3 ] && [ "${ACCEPT_PAUSED:-false}" = true ]; then
  echo "chainrun: $CHAIN paused at a decision point; the run can be resumed (chainrun resume ${o_run_id:-RUN_ID} --take …)" >&2
  exit 0
fi
exit "$code"
