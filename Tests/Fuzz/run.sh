#!/usr/bin/env bash
# Builds the libFuzzer target for the line framer + JSON-RPC decoder (Tests/Fuzz/FuzzTarget.swift
# over Sources/QuerydJSON and Sources/QuerydRPC, compiled with -sanitize=fuzzer,address) and runs
# it for SECONDS (default 60) on a copy of the committed corpus. Exits non-zero on a finding;
# crash inputs are left in $FUZZ_OUT (default /tmp/queryd-fuzz) as crash-*.
#
# Usage: Tests/Fuzz/run.sh [SECONDS]      (CI: Tests/Fuzz/run.sh 60)
set -euo pipefail

seconds="${1:-60}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${FUZZ_OUT:-/tmp/queryd-fuzz}"
build="$out/build"
swiftc="${SWIFTC:-swiftc}"
mkdir -p "$build" "$out/corpus"

flags=(-O -g -parse-as-library -sanitize=fuzzer,address -swift-version 6
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault -I "$build")

# Each library is one module; coverage instrumentation comes from -sanitize=fuzzer.
"$swiftc" "${flags[@]}" -module-name QuerydJSON -emit-module -emit-module-path "$build/QuerydJSON.swiftmodule" \
    -wmo -c "$root"/Sources/QuerydJSON/*.swift -o "$build/QuerydJSON.o"
"$swiftc" "${flags[@]}" -module-name QuerydRPC -emit-module -emit-module-path "$build/QuerydRPC.swiftmodule" \
    -wmo -c "$root"/Sources/QuerydRPC/*.swift -o "$build/QuerydRPC.o"
"$swiftc" "${flags[@]}" -module-name QuerydFuzz "$here/FuzzTarget.swift" "$build/QuerydJSON.o" "$build/QuerydRPC.o" \
    -o "$build/queryd-fuzz"

# New inputs go to a scratch copy; the committed corpus is only read.
cp -n "$here"/corpus/* "$out/corpus/" 2>/dev/null || true
cd "$out"
"$build/queryd-fuzz" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$out/corpus" "$here/corpus"
