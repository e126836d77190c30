#!/usr/bin/env bash
# gotest.sh PACKAGES...
# Runs the tests of PACKAGES through gotestsum in two runs side by side:
#   - every test but the browser tests, with BARHUB_RACE (-race by default);
#   - the browser tests, the crowd and the AI evaluation's model path (BROWSER_TESTS, a
#     -run pattern) of BROWSER_PKGS, without -race.
# The browser tests drive Chromium against the whole server; under the race detector they
# took twice as long (cmd/barhub: 9 min 39 s against 5 min 28 s on 2 cores) and made the
# suite's longest package, while the server code they reach is raced by the package tests
# of api, hub and the rest, and by cmd/barhub's HTTP end-to-end tests, which stay under
# -race. The crowd (TestCrowdOnTheDefault: 300 guests signing in within 10 s, every phone
# at once, an order rush) asks the whole server for what a party asks of it on two cores;
# under the race detector, which makes the server several times slower, it would measure
# the detector instead. The AI evaluation's model path (ai/eval TestModelPath) judges
# 1,215 answers, each through the real Bedrock SDK and a local Converse server: it took
# 127 s raced against 23 s without, while the bartender's concurrency is raced by ai's own
# tests. Both runs print each package as it ends; the script fails when either fails.
set -uo pipefail

: "${GOTESTSUM:?set GOTESTSUM to the gotestsum command}"
: "${GOTESTSUM_FORMAT:=pkgname-and-test-fails}"
: "${TESTFLAGS:=-count=1}"
: "${BROWSER_TESTS:=^(TestBrowser|TestCrowd)}"
: "${BROWSER_PKGS:=}"
[ $# -gt 0 ] || set -- ./...

# The modules first, once and quietly, with a line saying so: the two runs below would
# otherwise each print every "go: downloading" line for the first minutes.
echo "gotest: downloading the modules (once; quiet)…"
go mod download || exit 1
# shellcheck disable=SC2086
$GOTESTSUM --version >/dev/null || exit 1
echo "gotest: testing $* (the browser tests, the crowd and the AI evaluation's model path beside, without the race detector); each package is printed as it ends"

# shellcheck disable=SC2086 # GOTESTSUM, TESTFLAGS and BARHUB_RACE are word lists
run() { $GOTESTSUM --format "$GOTESTSUM_FORMAT" --format-hide-empty-pkg -- "$@"; }

browser_rc=0
browser_pid=
if [ -n "$BROWSER_PKGS" ]; then
	# shellcheck disable=SC2086
	run $TESTFLAGS -run "$BROWSER_TESTS" $BROWSER_PKGS &
	browser_pid=$!
fi
# shellcheck disable=SC2086
run ${BARHUB_RACE:-} $TESTFLAGS -skip "$BROWSER_TESTS" "$@"
rc=$?
if [ -n "$browser_pid" ]; then
	wait "$browser_pid"
	browser_rc=$?
fi
if [ "$rc" -ne 0 ] || [ "$browser_rc" -ne 0 ]; then
	echo "gotest: FAILED (tests without the browser: exit $rc; browser tests: exit $browser_rc)" >&2
	exit 1
fi
