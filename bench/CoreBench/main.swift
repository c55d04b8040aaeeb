// QuerydCoreBench: the cache engine in process (no socket, no JSON-RPC), timed on the workloads of
// TanStack query-core's in-process figures (bench/ANCHORS.md), so the two can be put
// side by side. Each workload runs ROUNDS times on a fresh cache; every figure is the median.
// Prints a Markdown table on stdout and per-round figures on stderr. Run it from a release build:
//   swift run -c release QuerydCoreBench [--rounds 5] [--quick] [--only set]
// `--only set` runs nothing but the two set workloads (for profiling it, e.g. under callgrind).

import Glibc
import QuerydCore
import QuerydJSON

/// Counts what the engine's effects ask of the outside world, so workloads can check them; the
/// workloads take the effects after every input, as the server does.
final class EffectCounter {
    var requests: [FetchRequest] = []
    var pushes = 0
    var answers = 0

    func take(from cache: QueryCache) {
        cache.effects.drain { effect in
            switch effect {
            case .sendFetch(let request): requests.append(request)
            case .push: pushes += 1
            case .answer(_, .success): answers += 1
            case .answerAll(let tokens, .success): answers += tokens.count
            default: break
            }
        }
    }
}

/// A cache on a manual clock (timers are kept but never run) with an effect counter.
struct Harness {
    let cache = QueryCache(clock: ManualClock())
    let effects = EffectCounter()

    /// Takes the effects of the last input.
    func takeEffects() { effects.take(from: cache) }
}

/// CPU seconds this thread has used: on a shared VM, time taken by other tenants does not count.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// This process's resident set size in bytes (from /proc/self/statm; 0 when unreadable).
func residentBytes() -> Int {
    let fd = open("/proc/self/statm", O_RDONLY)
    guard fd >= 0 else { return 0 }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return 0 }
    let fields = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: " ")
    guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
    return pages * sysconf(Int32(_SC_PAGESIZE))
}

func fail(_ message: String) -> Never {
    var errors = StandardError()
    print("QuerydCoreBench: \(message)", to: &errors)
    exit(1)
}

/// Writes to the standard error stream.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var text = string
        text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
    }
}

/// A value of about 100 bytes once encoded, different for every i.
func value(_ i: Int) -> JSONValue {
    .object([
        "id": .number(JSONNumber(i)), "title": .string("benchmark value \(i)"),
        "body": .string(String(repeating: "x", count: 48)), "done": .bool(i % 2 == 0),
    ])
}

/// The key ["todos", group, i]: a prefix ["todos", g] matches 1 % of the cache when groups = 100.
func key(_ i: Int, groups: Int = 100) -> QueryKey {
    QueryKey(elements: [.string("todos"), .number(JSONNumber(i % groups)), .number(JSONNumber(i))])
}

/// Fills a harness with `count` queries through `set`.
func fill(_ harness: Harness, count: Int) {
    for i in 0..<count {
        do {
            _ = try harness.cache.set(key: key(i), .data(value(i)), updatedAt: nil)
            harness.takeEffects()
        } catch {
            fail("set failed: \(error)")
        }
    }
}

// MARK: - Workloads (each returns its figure for one round)

/// µs per `set` of a new key, over `count` keys.
func setNewKeys(count: Int) -> Double {
    let harness = Harness()
    let keys = (0..<count).map { key($0) }
    let values = (0..<count).map { value($0) }
    let start = now()
    for i in 0..<count {
        do {
            _ = try harness.cache.set(key: keys[i], .data(values[i]), updatedAt: nil)
            harness.takeEffects()
        } catch {
            fail("set failed: \(error)")
        }
    }
    let elapsed = now() - start
    guard harness.cache.statistics.queries == count else { fail("expected \(count) queries") }
    return elapsed / Double(count) * 1e6
}

/// µs per `set` of a new key whose key and data are given as their canonical bytes (what the
/// wire's write fast path hands the engine: `set(canonicalKey:encodedData:)`), over `count` keys.
/// The difference from `setNewKeys` is encoding the value and the `QueryResult` that `set(key:)`
/// returns (both rows build their keys before the clock starts).
func setNewKeysEncoded(count: Int) -> Double {
    let harness = Harness()
    let keys = (0..<count).map { key($0).withCanonicalBytes { Array($0) } }
    let values = (0..<count).map { value($0).encoded }
    let start = now()
    for i in 0..<count {
        let written = keys[i].withUnsafeBytes { key in
            values[i].withUnsafeBytes { data in harness.cache.set(canonicalKey: key, encodedData: data) != nil }
        }
        guard written else { fail("an encoded set took the general path") }
        harness.takeEffects()
    }
    let elapsed = now() - start
    guard harness.cache.statistics.queries == count else { fail("expected \(count) queries") }
    return elapsed / Double(count) * 1e6
}

/// µs per read of a cached query's encoded data (what `query.get` answers), key built from scratch each time.
func getKeys(_ harness: Harness, count: Int) -> Double {
    var bytes = 0
    let start = now()
    for i in 0..<count {
        bytes &+= harness.cache.query(key(i))?.getAnswer?.count ?? 0
    }
    let elapsed = now() - start
    guard bytes > count * 50 else { fail("get found too little data (\(bytes) bytes)") }
    return elapsed / Double(count) * 1e6
}

/// ms per `invalidate` of a prefix matching 1 % of the cache (a fresh group every call); the median of `calls`.
func invalidateOnePercent(_ harness: Harness, cached: Int, calls: Int, firstGroup: Int) -> Double {
    var times: [Double] = []
    for call in 0..<calls {
        var filter = QueryFilter()
        filter.key = [.string("todos"), .number(JSONNumber(firstGroup + call))]
        let start = now()
        let matched = harness.cache.invalidate(filter, refetchType: .none)
        times.append((now() - start) * 1e3)
        guard matched == cached / 100 else { fail("invalidate matched \(matched), expected \(cached / 100)") }
    }
    return median(times)
}

/// ms for one `set` to reach `subscribers` subscriptions of the query (every push made).
func setToSubscribers(_ subscribers: Int) -> Double {
    let harness = Harness()
    let fan = QueryKey(elements: [.string("fan")])
    do {
        _ = try harness.cache.set(key: fan, .data(value(0)), updatedAt: nil)
        var options = QueryOptions()
        options.staleTime = .infinity
        options.refetchOnSubscribe = .never
        for connection in 0..<subscribers / 100 {
            for _ in 0..<100 {
                _ = try harness.cache.subscribe(connection: ConnectionID(connection + 1), key: fan, options: options)
            }
        }
        // One untimed publish first: the server's effect buffer keeps its storage from one input
        // to the next, so the timed one measures that steady state.
        _ = try harness.cache.set(key: fan, .data(value(2)), updatedAt: nil)
        harness.takeEffects()
        harness.effects.pushes = 0
        let start = now()
        _ = try harness.cache.set(key: fan, .data(value(1)), updatedAt: nil)
        harness.takeEffects()
        let elapsed = now() - start
        guard harness.effects.pushes == subscribers else {
            fail("set pushed \(harness.effects.pushes) times, expected \(subscribers)")
        }
        return elapsed * 1e3
    } catch {
        fail("fan-out setup failed: \(error)")
    }
}

/// ms for `callers` fetches of one cold key to be answered: the calls, one fetcher answer, every completion.
func herd(callers: Int) -> Double {
    let harness = Harness()
    let herdKey = QueryKey(elements: [.string("herd")])
    _ = harness.cache.registerFetcher(
        connection: ConnectionID(1), prefix: [.string("herd")], exact: false, cancellable: false,
        defaults: QueryOptions())
    let start = now()
    for caller in 0..<callers {
        do {
            try harness.cache.fetch(key: herdKey, options: QueryOptions(), mode: .fetch, waiter: WaiterToken(caller))
            harness.takeEffects()
        } catch {
            fail("fetch failed: \(error)")
        }
    }
    guard harness.effects.requests.count == 1 else {
        fail("\(callers) fetches sent \(harness.effects.requests.count) fetch requests, expected 1")
    }
    harness.cache.attemptSucceeded(harness.effects.requests[0].attempt, answer: .object(["data": value(7)]))
    harness.takeEffects()
    let completed = harness.effects.answers
    let elapsed = now() - start
    guard completed == callers else { fail("\(completed) of \(callers) fetches completed") }
    return elapsed * 1e3
}

/// Resident bytes per cached query after `count` sets (the key, the value, the state, its gc timer, the indexes).
func memoryPerQuery(count: Int) -> Double {
    let before = residentBytes()
    let harness = Harness()
    fill(harness, count: count)
    let after = residentBytes()
    withExtendedLifetime(harness) {}
    return Double(after - before) / Double(count)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

// MARK: - Main

var rounds = 5
var quick = false
var onlySet = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--rounds":
        guard let text = arguments.popFirst(), let n = Int(text), n > 0 else {
            fail("--rounds needs a positive number")
        }
        rounds = n
    case "--quick": quick = true
    case "--only":
        guard arguments.popFirst() == "set" else { fail("--only takes set") }
        onlySet = true
    default: fail("usage: QuerydCoreBench [--rounds N] [--quick] [--only set]")
    }
}
let small = quick ? 10_000 : 100_000
let large = quick ? 100_000 : 1_000_000

/// One row of the table: a workload, its unit, its rounds, and TanStack's range.
struct Row {
    let workload: String
    let unit: String
    var figures: [Double] = []
    let tanstack: (low: Double, high: Double)?
}

var rows = [
    Row(workload: "set, \(small) new keys", unit: "µs/op", tanstack: (4.3, 6.1)),
    Row(
        workload: "set, \(small) new keys, key and data given as canonical bytes (the wire's write; no TanStack twin)",
        unit: "µs/op", tanstack: nil),
    Row(workload: "get, \(small) keys (key built each time)", unit: "µs/op", tanstack: (1.5, 2.3)),
    Row(workload: "invalidate a prefix matching 1 % of \(small) cached", unit: "ms/call", tanstack: (18, 21)),
    Row(workload: "invalidate a prefix matching 1 % of \(large) cached", unit: "ms/call", tanstack: (107, 150)),
    Row(workload: "one set -> 10,000 subscriptions pushed", unit: "ms", tanstack: (4, 8)),
    Row(workload: "10,000 concurrent fetches of one key (1 fetch request)", unit: "ms", tanstack: (14, 18)),
    Row(
        workload:
            "memory per cached query (RSS growth over \(small) new queries, ~100 B value, measured once first; TanStack: heap)",
        unit: "bytes", tanstack: (1100, 1400)),
]

var errorStream = StandardError()
if onlySet {
    for _ in 1...rounds {
        rows[0].figures.append(setNewKeys(count: small))
        rows[1].figures.append(setNewKeysEncoded(count: small))
    }
    print("set, \(small) new keys: \(format(median(rows[0].figures))) µs/op (median of \(rounds))")
    print("set, \(small) new keys, given encoded: \(format(median(rows[1].figures))) µs/op")
    exit(0)
}
// Memory first, once: later workloads free memory that malloc keeps and would reuse, hiding the growth.
rows[7].figures.append(memoryPerQuery(count: small))
for round in 1...rounds {
    rows[0].figures.append(setNewKeys(count: small))
    rows[1].figures.append(setNewKeysEncoded(count: small))
    let smallCache = Harness()
    fill(smallCache, count: small)
    rows[2].figures.append(getKeys(smallCache, count: small))
    rows[3].figures.append(invalidateOnePercent(smallCache, cached: small, calls: 5, firstGroup: 0))
    let largeCache = Harness()
    fill(largeCache, count: large)
    rows[4].figures.append(invalidateOnePercent(largeCache, cached: large, calls: 5, firstGroup: 0))
    rows[5].figures.append(setToSubscribers(10_000))
    rows[6].figures.append(herd(callers: 10_000))
    let line = rows.dropLast().map { "\($0.figures.last ?? 0)" }.joined(separator: " ")
    print("round \(round): \(line)", to: &errorStream)
}

func format(_ x: Double) -> String {
    let digits = x >= 100 ? 0 : (x >= 10 ? 1 : 2)
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (x * scale).rounded() / scale
    var text = digits == 0 ? String(Int(rounded)) : String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    }
    return text
}

if quick {
    print("(--quick: caches 10× smaller than in TanStack's figures, so the ratios are not comparable)\n")
}
print(
    "| workload (in process) | unit | queryd core (median of \(rounds)) | TanStack query-core 5 (Node 24) |"
        + " ratio queryd ÷ TanStack midpoint |")
print("|---|---|---:|---:|---:|")
for row in rows {
    let ours = median(row.figures)
    guard let tanstack = row.tanstack else {
        print("| \(row.workload) | \(row.unit) | \(format(ours)) | — | — |")
        continue
    }
    let mid = (tanstack.low + tanstack.high) / 2
    print(
        "| \(row.workload) | \(row.unit) | \(format(ours)) | \(format(tanstack.low))–\(format(tanstack.high))"
            + " | \(format(ours / mid)) |")
}
