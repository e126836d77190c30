#!/usr/bin/env bash
# fuzz.sh FUZZTIME [PACKAGES...]
# Runs every Fuzz* target in the packages, one after another, each for FUZZTIME. Go runs
# only one fuzz target per invocation, hence the loop. Failing inputs are saved by go test
# under the package's testdata/fuzz/ for a regression test.
set -euo pipefail

fuzztime=${1:?usage: fuzz.sh FUZZTIME [PACKAGES...]}
shift
[ $# -gt 0 ] || set -- ./...

found=0
for pkg in $(go list "$@"); do
	targets=$(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true)
	for target in $targets; do
		found=$((found + 1))
		echo "fuzz: $pkg $target for $fuzztime"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
	done
done
echo "fuzz: ran $found targets"
