#!/usr/bin/env bash
# Checks that QuerydClient works as a dependency: a fresh SwiftPM package in a temporary directory depends on
# this repository by path and builds an executable whose only import is `import QuerydClient` (it names
# JSONValue, JSONNumber, RPCError and RPCErrorCode, which come re-exported). One debug build of the client's
# modules; the dependency pins are copied from the repository's Package.resolved. Exits non-zero on failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/queryd-client-package.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/UsesClient"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "UsesClient",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(
            name: "UsesClient", dependencies: [.product(name: "QuerydClient", package: "$(basename "$root")")])
    ]
)
SWIFT
cat > "$work/Sources/UsesClient/main.swift" <<'SWIFT'
import QuerydClient

let value: JSONValue = ["n": .number(JSONNumber(1))]
let error = RPCError(RPCErrorCode.noFetcher, data: value)
let options = QueryOptions(staleTime: .infinity, push: .patch)
let client = QueryClient(socketPath: "/tmp/none.sock", reconnect: .disabled)
print(value.encodedString, error.knownCode == .noFetcher, options.jsonValue.encodedString, client.socketPath)
SWIFT
if [ -f "$root/Package.resolved" ]; then cp "$root/Package.resolved" "$work/Package.resolved"; fi
cd "$work"
swift build --product UsesClient
output="$(.build/debug/UsesClient)"
expected='{"n":1} true {"push":"patch","staleTime":"Infinity"} /tmp/none.sock'
if [ "$output" != "$expected" ]; then
    echo "check-package.sh: unexpected output: $output (wanted $expected)" >&2
    exit 1
fi
echo "check-package.sh: a package depending on QuerydClient by path builds with import QuerydClient alone"
