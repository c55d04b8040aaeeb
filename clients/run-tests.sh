#!/usr/bin/env bash
# Runs the Python and Node.js client tests (with their packaging and TypeScript checks, which need
# npm and tsc: scripts/bootstrap installs them) against a built daemon: $QUERYD_BIN, else
# .build/debug/queryd (build it first with `swift build --product queryd`). Exits non-zero when
# either suite fails (or runs past 10 minutes); both always run.
set -uo pipefail
cd "$(dirname "$0")/.."
export QUERYD_BIN="${QUERYD_BIN:-$PWD/.build/debug/queryd}"
if [ ! -x "$QUERYD_BIN" ]; then
    echo "clients/run-tests.sh: no daemon at $QUERYD_BIN (run swift build --product queryd, or set QUERYD_BIN)" >&2
    exit 2
fi
status=0
echo "== Python client (clients/python)"
timeout 600 python3 -m pytest clients/python/tests -q || status=1
echo "== Node.js client (clients/node)"
# A failed assertion can leave a test file's socket open and node waiting: bound each suite.
timeout 600 node --test clients/node/test/ || status=1
exit $status
