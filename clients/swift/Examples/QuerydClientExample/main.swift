// A runnable example of QuerydClient: a fetcher process and a subscriber process.
//
//   QuerydClientExample fetcher    [--socket PATH] [--prefix JSON]
//       serves ["greeting", name] keys with {"text": "hello, <name>", "served": n} until killed.
//   QuerydClientExample subscriber [--socket PATH] [--key JSON] [--until-data JSON] [--count N]
//       subscribes to the key and prints one line per state: {"data","fetchStatus","status","version"} in canonical
//       JSON, stopping after N states or at the first state whose data equals --until-data.

import Foundation
import QuerydClient
import QuerydJSON

/// Command-line flags as name -> value.
struct Flags {
    var values: [String: String] = [:]

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard name.hasPrefix("--"), let value = iterator.next() else {
                fail("expected --flag value pairs, got \(name)")
            }
            values[String(name.dropFirst(2))] = value
        }
    }

    func json(_ name: String) -> JSONValue? {
        guard let text = values[name] else { return nil }
        guard let value = try? JSONParser.parse(text) else { fail("--\(name) is not JSON: \(text)") }
        return value
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

/// Prints one line and flushes (the output is usually a pipe read by a test).
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Counts fetches served by this process.
actor Counter {
    private var value = 0
    func next() -> Int {
        value += 1
        return value
    }
}

func runFetcher(_ flags: Flags) async throws {
    let client = QueryClient(socketPath: flags.values["socket"])
    try await client.connect()
    let prefix = flags.json("prefix") ?? ["greeting"]
    let counter = Counter()
    try await client.registerFetcher(JSONKey(prefix.arrayValue ?? [])) { key, _ in
        let served = await counter.next()
        let name = key[1]?.stringValue ?? "world"
        return .data(["text": .string("hello, \(name)"), "served": .number(JSONNumber(served))])
    }
    emit("ready")
    for await event in await client.connectionEvents() {
        FileHandle.standardError.write(Data("connection: \(event)\n".utf8))
    }
}

func runSubscriber(_ flags: Flags) async throws {
    let client = QueryClient(socketPath: flags.values["socket"])
    try await client.connect()
    let key = flags.json("key") ?? ["greeting", "world"]
    let untilData = flags.json("until-data")
    let limit = flags.values["count"].flatMap(Int.init) ?? Int.max
    let subscription = try await client.subscribe(JSONKey(key.arrayValue ?? []))
    var printed = 0
    for await event in subscription.events {
        guard case .state(let state) = event else { continue }
        var line: [String: JSONValue] = [
            "status": .string(state.status.rawValue), "fetchStatus": .string(state.fetchStatus.rawValue),
            "version": .number(JSONNumber(state.version)),
        ]
        if let data = state.data { line["data"] = data }
        emit(JSONValue.object(line).encodedString)
        printed += 1
        if printed >= limit || (untilData != nil && state.data == untilData) { break }
    }
    await client.unsubscribe(subscription)
    await client.close()
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: QuerydClientExample fetcher|subscriber [--socket PATH] ...") }
let flags = Flags(arguments.dropFirst(2))
do {
    switch arguments[1] {
    case "fetcher": try await runFetcher(flags)
    case "subscriber": try await runSubscriber(flags)
    default: fail("unknown mode \(arguments[1]); use fetcher or subscriber")
    }
} catch {
    fail("error: \(error)")
}
