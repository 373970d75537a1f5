#!/usr/bin/env bash
# The logic of the repository's GitHub Action (action.yml): installs the packed kit with npm, runs it against the
# target and publishes its summary. Run by hand or in any CI the same way (conformance/test/action.test.ts does):
#
#   INPUT_URL=https://staging.example INPUT_FIXTURES_SECRET=… bash action/run.sh
#
# INPUT_URL, INPUT_FIXTURES_SECRET  the target, running in test mode, and the secret of its fixtures protocol.
# INPUT_START                       a command that starts the server under test (optional): run in the background in
#                                   a process group of its own, waited for, and stopped when the step ends.
# INPUT_WAIT_FOR, INPUT_WAIT_SECONDS  the address polled until it answers anything over HTTP (default INPUT_URL), and
#                                   for how long (default 60 s); a server that never answers is one sentence, exit 2.
# INPUT_DECLARATION                 the target's declaration (optional; `site-mcp init` writes a first one).
# INPUT_EXPECTED_FAILURES           its known failures (optional; without it nothing is expected to fail).
# INPUT_REPORT_DIR                  where the reports go (default site-mcp-reports).
# INPUT_KIT                         what npm installs as the kit: a version (site-mcp@0.1.0) or a tarball; default:
#                                   this checkout of the kit, packed with npm pack (the action's own ref).
# INPUT_ARGS                        more options of `site-mcp conformance`, split on spaces (e.g. --shard 1/2).
# GITHUB_STEP_SUMMARY, GITHUB_OUTPUT  set by GitHub Actions: summary.md is appended to the job summary (also when
#                                   the run failed), and the outputs exit-code and report-dir are written.
#
# Exit codes: those of site-mcp conformance (0 nothing failed, 1 a check failed, 2 the run could not start); 2 also
# for a missing input, with one sentence, before anything is installed.
set -uo pipefail

fail() { echo "$1" >&2; exit 2; }
[ -n "${INPUT_URL:-}" ] || fail "site-mcp action: the input url is missing; pass the address of your server in test mode."
[ -n "${INPUT_FIXTURES_SECRET:-}" ] || fail "site-mcp action: the input fixtures-secret is missing; pass the secret of your server's fixtures protocol (a repository secret)."
report_dir="${INPUT_REPORT_DIR:-site-mcp-reports}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The kit goes into a folder of its own, not into the caller's project.
kit_dir="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/site-mcp-kit.XXXXXX")"
trap 'rm -rf "$kit_dir"' EXIT
kit="${INPUT_KIT:-}"
if [ -z "$kit" ]; then
  npm pack "$here" --pack-destination "$kit_dir" --silent >/dev/null || fail "site-mcp action: npm pack of the kit at $here failed (see above)."
  kit="$(ls "$kit_dir"/*.tgz)"
fi
echo '{ "name": "site-mcp-action-kit", "private": true }' > "$kit_dir/package.json"
(cd "$kit_dir" && npm install --no-audit --no-fund --loglevel=error --prefer-offline "$kit") || fail "site-mcp action: npm install $kit failed (see above)."

if [ -n "${INPUT_START:-}" ]; then
  server_log="$kit_dir/server.log"
  setsid bash -c "$INPUT_START" >"$server_log" 2>&1 &
  server_pid=$!
  trap 'kill -- -"$server_pid" 2>/dev/null; sleep 1; kill -9 -- -"$server_pid" 2>/dev/null; rm -rf "$kit_dir"' EXIT
  wait_for="${INPUT_WAIT_FOR:-$INPUT_URL}"
  wait_seconds="${INPUT_WAIT_SECONDS:-60}"
  answered=""
  for _ in $(seq 1 "$wait_seconds"); do
    if node -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(2000) }).then(() => process.exit(0), () => process.exit(1))' "$wait_for"; then answered=1; break; fi
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 1
  done
  if [ -z "$answered" ]; then
    echo "site-mcp action: the server the input start runs did not answer $wait_for within $wait_seconds s; its last lines: $(tail -n 3 "$server_log" | tr '\n' ' ')" >&2
    exit 2
  fi
fi

args=(conformance --url "$INPUT_URL" --fixtures-secret "$INPUT_FIXTURES_SECRET" --report-dir "$report_dir")
[ -n "${INPUT_DECLARATION:-}" ] && args+=(--declaration "$INPUT_DECLARATION")
[ -n "${INPUT_EXPECTED_FAILURES:-}" ] && args+=(--expected-failures "$INPUT_EXPECTED_FAILURES")
# shellcheck disable=SC2206 # split on spaces on purpose: a list of options
[ -n "${INPUT_ARGS:-}" ] && args+=(${INPUT_ARGS})

node "$kit_dir/node_modules/site-mcp/bin/site-mcp.mjs" "${args[@]}"
code=$?

if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$report_dir/summary.md" ]; then cat "$report_dir/summary.md" >> "$GITHUB_STEP_SUMMARY"; fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "exit-code=$code" >> "$GITHUB_OUTPUT"
  echo "report-dir=$report_dir" >> "$GITHUB_OUTPUT"
fi
exit "$code"
