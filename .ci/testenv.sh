#!/usr/bin/env bash
# testenv.sh COMMAND [ARGS...]
#
# Runs COMMAND with what barhub's tests need, on a fresh Debian or Ubuntu machine that has
# only Go:
#   REDIS_URL      unless already set, a throwaway redis-server on a free loopback port that
#                  keeps nothing on disk and is stopped when COMMAND ends, pass or fail;
#   BARHUB_CHROME  unless already set, Debian's /usr/bin/chromium;
#   BARHUB_RACE    -race, unless set (empty turns it off) or there is no C compiler;
#   BARHUB_TEST_DB_URI, BARHUB_TEST_DB_DATA
#                  unless MONGODB_URI or BARHUB_TEST_DB_URI is set, one embedded database
#                  for every test binary of the run (store/storetest/testdb), built without
#                  the race detector and stopped when COMMAND ends: raced, the database's
#                  own code made most of the suite's time (see store/storetest).
# Missing Debian packages (redis-server, chromium, gcc for the race detector) are installed
# with apt-get when this runs as root or with password-less sudo; otherwise it stops and
# says exactly what to install.
#
# A Redis already listening on 6379 is deliberately ignored: tests get a server of their
# own so they never see another program's keys.
set -euo pipefail

log() { printf 'testenv: %s\n' "$*" >&2; }
die() {
	printf 'testenv: %s\n' "$*" >&2
	exit 1
}

[ $# -gt 0 ] || die "usage: $0 COMMAND [ARGS...]"

# as_root runs a command as root, directly or through password-less sudo.
as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo "$@"
	else
		return 1
	fi
}

can_install() {
	command -v apt-get >/dev/null 2>&1 || return 1
	[ "$(id -u)" = 0 ] && return 0
	command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null
}

# apt_install installs Debian packages, refreshing the package lists only when the first
# attempt fails (missing or stale lists), so a warm machine does not pay for an update.
apt_install() {
	local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -y -q -o Dpkg::Use-Pty=0 --no-install-recommends)
	local start=$SECONDS
	log "installing $* with apt-get"
	if ! as_root "${apt[@]}" install "$@" >/dev/null; then
		as_root "${apt[@]}" update >/dev/null || return 1
		as_root "${apt[@]}" install "$@" >/dev/null || return 1
	fi
	log "installed $* in $((SECONDS - start)) s"
}

# need_package PROGRAM HINT PACKAGE... makes sure PROGRAM (a name on PATH or a path) is
# there, installing the packages if it can; HINT is added to the message when it cannot.
need_package() {
	local program=$1 hint=$2
	shift 2
	command -v "$program" >/dev/null 2>&1 && return 0
	[ -x "$program" ] && return 0
	if can_install; then
		apt_install "$@" || die "could not install $* with apt-get. Install it by hand: sudo apt-get install $*${hint:+ ($hint)}"
	else
		die "$program is missing. Install it with: sudo apt-get install $*${hint:+ ($hint)}; then run make test again"
	fi
}

workdir=$(mktemp -d "${TMPDIR:-/tmp}/barhub-test.XXXXXX")
redis_pid=
testdb_pid=
stop_pid() {
	if [ -n "$1" ] && kill -0 "$1" 2>/dev/null; then
		kill "$1" 2>/dev/null || true
		wait "$1" 2>/dev/null || true
	fi
}
cleanup() {
	stop_pid "$redis_pid"
	stop_pid "$testdb_pid"
	rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_in_use() { (: <"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

redis_ping() { # redis_ping PORT: true once the server answers PONG
	local reply
	exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
	printf 'PING\r\n' >&3
	IFS= read -r -t 1 reply <&3 || reply=
	exec 3>&-
	[ "${reply%$'\r'}" = "+PONG" ]
}

start_redis() {
	need_package redis-server "or set REDIS_URL to a Redis the tests may use" redis-server
	local attempt port i
	for attempt in 1 2 3 4 5 6 7 8 9 10; do
		port=$((20000 + RANDOM % 30000))
		port_in_use "$port" && continue
		redis-server --bind 127.0.0.1 --port "$port" --save "" --appendonly no \
			--dir "$workdir" --logfile "$workdir/redis.log" --daemonize no &
		redis_pid=$!
		for i in $(seq 1 100); do
			if ! kill -0 "$redis_pid" 2>/dev/null; then
				break # lost the race for the port, or failed to start: try another
			fi
			if redis_ping "$port" 2>/dev/null; then
				export REDIS_URL="redis://127.0.0.1:$port/0"
				log "redis-server (pid $redis_pid) at $REDIS_URL"
				return 0
			fi
			sleep 0.05
		done
		kill "$redis_pid" 2>/dev/null || true
		wait "$redis_pid" 2>/dev/null || true
		redis_pid=
	done
	[ -f "$workdir/redis.log" ] && tail -n 20 "$workdir/redis.log" >&2
	die "could not start redis-server on a free port (log above)"
}

start_testdb() {
	local start=$SECONDS i line
	# The modules first, quietly, under a line saying so: on a fresh machine the build
	# would otherwise print a "go: downloading" line for each.
	log "downloading the modules (once; quiet) and building the embedded test database…"
	go mod download 2>/dev/null || true
	go build -o "$workdir/testdb" ./store/storetest/testdb || die "could not build store/storetest/testdb"
	mkdir -p "$workdir/testdb-data"
	"$workdir/testdb" -data "$workdir/testdb-data" >"$workdir/testdb.out" 2>"$workdir/testdb.log" &
	testdb_pid=$!
	for i in $(seq 1 600); do
		IFS= read -r line <"$workdir/testdb.out" 2>/dev/null || line=
		if [ "${line%%=*}" = BARHUB_TEST_DB_URI ]; then
			export "$line" BARHUB_TEST_DB_DATA="$workdir/testdb-data"
			log "embedded test database (pid $testdb_pid) at $BARHUB_TEST_DB_URI in $((SECONDS - start)) s"
			return 0
		fi
		kill -0 "$testdb_pid" 2>/dev/null || break
		sleep 0.1
	done
	tail -n 20 "$workdir/testdb.log" >&2
	die "the embedded test database did not start (log above)"
}

find_chrome() {
	if [ -n "${BARHUB_CHROME:-}" ]; then
		[ -x "$BARHUB_CHROME" ] || die "BARHUB_CHROME=$BARHUB_CHROME is not an executable file"
		return 0
	fi
	# fonts-liberation gives screenshots real text on a machine with no other fonts.
	need_package /usr/bin/chromium "or set BARHUB_CHROME to a Chromium or Chrome binary" \
		chromium fonts-liberation
	export BARHUB_CHROME=/usr/bin/chromium
}

# The race detector needs cgo and so a C compiler; without one the tests still run, only
# without -race. The Makefile passes BARHUB_RACE (empty with `make test RACE=`).
find_cc() {
	export BARHUB_RACE=${BARHUB_RACE--race}
	[ -n "$BARHUB_RACE" ] || return 0
	if command -v "${CC:-gcc}" >/dev/null 2>&1; then
		return 0
	fi
	if can_install && apt_install gcc libc6-dev; then
		return 0
	fi
	log "no C compiler: running the tests without -race (install gcc to enable it)"
	BARHUB_RACE=
}

if [ -z "${REDIS_URL:-}" ]; then
	start_redis
else
	log "using REDIS_URL from the environment"
fi
if [ -z "${MONGODB_URI:-}" ] && [ -z "${BARHUB_TEST_DB_URI:-}" ]; then
	start_testdb
fi
find_chrome
find_cc

# Not exec: the EXIT trap must stop redis-server once the command returns.
set +e
"$@"
status=$?
set -e
exit "$status"
