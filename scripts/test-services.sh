#!/usr/bin/env bash
# `npm test`'s own set-up (its `pretest`): the suite needs the local PostgreSQL and Redis of this
# machine kind and Debian's Chromium. Each is started or installed only when it is missing, saying
# so; when that is not possible (not root, no such service here) it says how to do it by hand and
# stops, instead of letting a hundred tests fail one by one.
set -uo pipefail

say() { echo "test set-up: $*" >&2; }
fail() { say "$*"; exit 1; }

pg_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; }

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  : # the tests' PostgreSQL is someone else's: nothing to start
elif ! pg_up; then
  cluster_version="$(ls /etc/postgresql 2>/dev/null | head -n1)"
  [ -n "$cluster_version" ] && command -v pg_ctlcluster >/dev/null \
    || fail "PostgreSQL is not running on 127.0.0.1:5432 and no local cluster is installed; start one (or set TEST_DATABASE_URL) and run npm test again"
  say "starting the local PostgreSQL $cluster_version"
  pg_ctlcluster --skip-systemctl-redirect "$cluster_version" main start \
    || fail "could not start PostgreSQL; by hand: pg_ctlcluster --skip-systemctl-redirect $cluster_version main start"
fi

if ! redis_up; then
  command -v redis-server >/dev/null \
    || fail "Redis is not running on 127.0.0.1:6379 and redis-server is not installed (apt-get install -y redis-server)"
  say "starting a local Redis on 127.0.0.1:6379 (keeps nothing on disk)"
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log \
    || fail "could not start Redis; by hand: redis-server --daemonize yes --port 6379 --save \"\""
  for _ in $(seq 50); do redis_up && break; sleep 0.1; done
fi

if [ ! -x /usr/bin/chromium ]; then
  [ "$(id -u)" = 0 ] \
    || fail "the browser tests drive Debian's Chromium at /usr/bin/chromium; install it as root: apt-get update && apt-get install -y chromium"
  say "installing Debian's Chromium for the browser tests (a minute or two, once)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
    || fail "could not install Chromium; by hand: apt-get update && apt-get install -y chromium"
fi
exit 0
