#!/usr/bin/env bash
# loadtable.sh [OUTDIR]
# Runs the live and API load scenarios of docs/BENCHMARKS.md ("Issue 14's table, final")
# one after another, each against a fresh barhub on a fresh temporary data folder, and
# prints what each tool reports, with the time and load average before each row. The
# figures mean most on an otherwise quiet machine. The Redis row needs REDIS_URL (make load
# runs this under testenv.sh, which starts a throwaway redis-server); it uses database 5.
# LOAD_EVENTS=3 spreads the apiload rows' guests over three events on the one server
# (docs/EVENTS.md), each made from the first with its guests and menu; in the crowd rows
# the two more events hold the hosts and menu, and every sign-in looks across them.
set -uo pipefail
events=${LOAD_EVENTS:-1}

out=${1:-$(mktemp -d)}
bin=$out/bin
mkdir -p "$bin"
go build -o "$bin/barhub" ./cmd/barhub && go build -o "$bin/hubload" ./cmd/hubload &&
	go build -o "$bin/apiload" ./cmd/apiload || exit 1
addr=127.0.0.1:${LOAD_PORT:-8091}

pid= code= last= data=
serve() { # serve [barhub flags]: a fresh server; sets pid, code, last, data
	data=$(mktemp -d)
	"$bin/barhub" serve --data "$data" --addr "$addr" --ws-sockets-per-guest 20000 \
		--ws-tickets-per-minute 1000000 "$@" >"$data/log" 2>&1 &
	pid=$!
	for _ in $(seq 150); do
		grep -q "admin login" "$data/log" && break
		sleep 0.2
	done
	code=$(grep -o 'code=[A-Z0-9]*' "$data/log" | head -1 | cut -d= -f2)
	last=$(grep -o 'lastName=[^ ]*' "$data/log" | head -1 | cut -d= -f2)
	[ -n "$code" ] || { cat "$data/log"; exit 1; }
	sleep 1
}
stop() {
	kill "$pid"
	wait "$pid" 2>/dev/null
	rm -rf "$data"
	sleep 2
}
row() { echo "=== $1 ($(date -u +%H:%M:%S) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"; }
hubload() { "$bin/hubload" -url "http://$addr" -code "$code" -last "$last" -pid "$pid" "$@"; }

for n in 10000 2000; do
	row "broadcast to $n sockets"
	serve
	hubload -n "$n" -rate 20 -duration 10s -settle 2s
	stop
done
row "personal announcements to 2,000 guests, in-process"
serve
hubload -n 2000 -mode guests -rounds 5 -batch 2000 -settle 1s
stop
if [ -n "${REDIS_URL:-}" ]; then
	row "personal announcements to 2,000 guests, Redis"
	serve --redis-url "${REDIS_URL%/*}/5"
	hubload -n 2000 -mode guests -rounds 5 -batch 2000 -settle 1s
	stop
fi
for b in 4 0; do
	row "order placements, 32 clients, $b bartenders"
	"$bin/apiload" -scenario orders -duration 10s -concurrency 32 -bartenders "$b" -guests 1000 -events "$events"
done
row "ready to phone, 100 orders a second"
"$bin/apiload" -scenario ready -duration 15s -rate 100 -guests 1000 -events "$events"
row "guest desk at 10,000 guests, after a 10,000-row import"
"$bin/apiload" -scenario desk -duration 15s -concurrency 4 -guests 1 -desk-guests 10000 -import 10000 -events "$events"

# A whole party (cmd/apiload/crowd): doors over 10 s, everyone at once, the door, two Wi-Fi
# blips, an order rush of 100 in one second, an announcement, the desk and /readyz watched.
# Each phone has its own address (X-Forwarded-For from the trusted loopback), as on a venue's
# Wi-Fi; the server keeps its own default limits.
crowd() { "$bin/apiload" -scenario crowd -rate 100 -events "$events" "$@"; }
for n in 1000 3000; do
	row "crowd of $n guests, embedded default"
	data=$(mktemp -d)
	"$bin/barhub" serve --data "$data" --addr "$addr" --trusted-proxies 127.0.0.1/32 >"$data/log" 2>&1 &
	pid=$!
	for _ in $(seq 150); do grep -q "barhub is ready" "$data/log" && break; sleep 0.2; done
	code=$(grep -o 'code=[A-Z0-9]*' "$data/log" | head -1 | cut -d= -f2)
	last=$(grep -o 'lastName=[^ ]*' "$data/log" | head -1 | cut -d= -f2)
	crowd -urls "http://$addr" -code "$code" -last "$last" -guests "$n"
	stop
done
if [ -n "${REDIS_URL:-}" ]; then
	for n in 1000 3000; do
		row "crowd of $n guests, two instances on barhub db and Redis"
		dbdata=$(mktemp -d)
		"$bin/barhub" db --data "$dbdata" --addr 127.0.0.1:27099 >"$dbdata/log" 2>&1 &
		dbpid=$!
		for _ in $(seq 150); do grep -q "embedded database ready" "$dbdata/log" && break; sleep 0.2; done
		uri=$(grep -o 'MONGODB_URI=[^ ]*' "$dbdata/log" | head -1 | cut -d= -f2-)
		redis="${REDIS_URL%/*}/6"
		pids=() urls=() dirs=()
		for port in 8092 8093; do
			d=$(mktemp -d)
			"$bin/barhub" serve --data "$d" --addr "127.0.0.1:$port" --mongodb-uri "$uri" --redis-url "$redis" \
				--trusted-proxies 127.0.0.1/32 >"$d/log" 2>&1 &
			pids+=($!) urls+=("http://127.0.0.1:$port") dirs+=("$d")
			for _ in $(seq 150); do grep -q "barhub is ready" "$d/log" && break; sleep 0.2; done
		done
		code=$(cat "${dirs[@]/%//log}" | grep -o 'code=[A-Z0-9]*' | head -1 | cut -d= -f2)
		last=$(cat "${dirs[@]/%//log}" | grep -o 'lastName=[^ ]*' | head -1 | cut -d= -f2)
		crowd -urls "$(IFS=,; echo "${urls[*]}")" -code "$code" -last "$last" -guests "$n"
		kill "${pids[@]}" "$dbpid"
		wait "${pids[@]}" "$dbpid" 2>/dev/null
		rm -rf "$dbdata" "${dirs[@]}"
		redis-cli -u "$redis" flushdb >/dev/null 2>&1 || true
		sleep 2
	done
fi
