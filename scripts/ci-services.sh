#!/usr/bin/env bash
# Services the web tests need, for CI (run as root on Debian) and for developers:
# Debian's chromium for the browser tests and a throwaway PostgreSQL server.
# Source it (". scripts/ci-services.sh"): it exports PINOCHLEKIT_TEST_PG, the URL
# the PostgreSQL tests use (they fail, not skip, when it is set and unreachable).
# Packages are installed only when missing; the server is stopped at exit of the
# sourcing shell only if this script started it.

_pk_need=()
command -v chromium >/dev/null 2>&1 || _pk_need+=(chromium)
_pk_pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
[ -n "$_pk_pgbin" ] || _pk_need+=(postgresql)
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
    trap _pk_stop_pg EXIT
fi
