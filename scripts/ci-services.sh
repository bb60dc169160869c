#!/usr/bin/env bash
# Services the web tests need, for CI (run as root on Debian) and for developers:
# Debian's chromium for the browser tests, a throwaway PostgreSQL server and a
# throwaway Redis server (the cluster tests, docs/web-cluster.md).
# Source it (". scripts/ci-services.sh"): it exports PINOCHLEKIT_TEST_PG, the URL
# the PostgreSQL tests use (they fail, not skip, when it is set and unreachable),
# and PINOCHLEKIT_TEST_REDIS, the Redis URL of the cluster tests.
# Packages are installed only when missing; a server is stopped at exit of the
# sourcing shell only if this script started it.

_pk_need=()
command -v chromium >/dev/null 2>&1 || _pk_need+=(chromium)
_pk_pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
[ -n "$_pk_pgbin" ] || _pk_need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || _pk_need+=(redis-server)
if [ ${#_pk_need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "== installing ${_pk_need[*]} (apt-get)"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${_pk_need[@]}" >/dev/null
    else
        echo "== missing ${_pk_need[*]}: install them with apt-get (as root)" >&2
    fi
    _pk_pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
fi

if [ -z "${PINOCHLEKIT_TEST_PG:-}" ] && [ -n "$_pk_pgbin" ]; then
    _pk_port=${PINOCHLEKIT_PG_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
    _pk_dir=$(mktemp -d /tmp/pinochlekit-pg.XXXXXX)
    chmod 755 "$_pk_dir"
    _pk_as=()
    if [ "$(id -u)" = 0 ]; then
        chown postgres: "$_pk_dir"
        _pk_as=(runuser -u postgres --)
    fi
    echo "== starting PostgreSQL on 127.0.0.1:$_pk_port"
    "${_pk_as[@]}" "$_pk_pgbin/initdb" -D "$_pk_dir/data" -A trust -U postgres >/dev/null
    "${_pk_as[@]}" "$_pk_pgbin/pg_ctl" -D "$_pk_dir/data" -l "$_pk_dir/log" -w \
        -o "-p $_pk_port -k $_pk_dir -c listen_addresses=127.0.0.1" start >/dev/null
    "${_pk_as[@]}" "$_pk_pgbin/createdb" -h 127.0.0.1 -p "$_pk_port" -U postgres pinochle_test
    export PINOCHLEKIT_TEST_PG="postgresql://postgres@127.0.0.1:$_pk_port/pinochle_test"
    _pk_stop_pg() {
        "${_pk_as[@]}" "$_pk_pgbin/pg_ctl" -D "$_pk_dir/data" -m fast stop >/dev/null 2>&1 || true
        rm -rf "$_pk_dir"
    }
fi

if [ -z "${PINOCHLEKIT_TEST_REDIS:-}" ] && command -v redis-server >/dev/null 2>&1; then
    _pk_rport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    _pk_rdir=$(mktemp -d /tmp/pinochlekit-redis.XXXXXX)
    echo "== starting Redis on 127.0.0.1:$_pk_rport"
    # no persistence: a throwaway server for the tests
    redis-server --port "$_pk_rport" --bind 127.0.0.1 --save "" --appendonly no \
        --dir "$_pk_rdir" --daemonize yes --pidfile "$_pk_rdir/redis.pid" \
        --logfile "$_pk_rdir/log" >/dev/null
    for _pk_i in $(seq 50); do
        redis-cli -p "$_pk_rport" ping >/dev/null 2>&1 && break
        sleep 0.1
    done
    export PINOCHLEKIT_TEST_REDIS="redis://127.0.0.1:$_pk_rport/0"
    _pk_stop_redis() {
        redis-cli -p "$_pk_rport" shutdown nosave >/dev/null 2>&1 || true
        rm -rf "$_pk_rdir"
    }
fi

_pk_stop_services() {
    if declare -F _pk_stop_pg >/dev/null; then _pk_stop_pg; fi
    if declare -F _pk_stop_redis >/dev/null; then _pk_stop_redis; fi
}
trap _pk_stop_services EXIT
