// Every recursive path over a JSON value stays within JSONNestingLimit.stackBytesPerLevel, so the
// depth the daemon accepts (clamped to its stack) can never overflow the stack.

import QuerydCore
import QuerydJSON
import Testing

@Suite("Nesting and the stack")
struct NestingStackTests {
    /// `[[[…]]]`, `depth` levels, built without recursion.
    static func nestedArrays(_ depth: Int) -> JSONValue {
        var value = JSONValue.array([])
        for _ in 1..<depth { value = .array([value]) }
        return value
    }

    /// `{"a":{"a":…{"a":1}}}`, `depth` levels, built without recursion.
    static func nestedObjects(_ depth: Int, leaf: JSONValue = 1) -> JSONValue {
        var value = JSONValue.object(["a": leaf])
        for _ in 1..<depth { value = .object(["a": value]) }
        return value
    }

    static func text(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        value.write(to: &bytes)
        return bytes
    }

    /// Each recursive operation over a value, run at a given depth (building the value is
    /// iterative; destroying it is part of every operation).
    static let operations: [(name: String, run: @Sendable (Int) -> Void)] = [
        ("destroy", { depth in _ = nestedObjects(depth) }),
        ("parse arrays", { depth in _ = try? JSONParser.parse(text(nestedArrays(depth)), maxDepth: .max) }),
        ("parse objects", { depth in _ = try? JSONParser.parse(text(nestedObjects(depth)), maxDepth: .max) }),
        ("encode", { depth in _ = text(nestedObjects(depth)) }),
        ("compact", { depth in _ = nestedObjects(depth).compacted() }),
        ("compare", { depth in _ = nestedObjects(depth) == nestedObjects(depth, leaf: 2) }),
        ("hash", { depth in _ = nestedObjects(depth).hashValue }),
        ("merge patch", { depth in _ = nestedObjects(depth).applyingMergePatch(nestedObjects(depth, leaf: 2)) }),
        ("query key", { depth in _ = QueryKey(elements: [nestedObjects(depth)]).jsonValue }),
        (
            "partial match",
            { depth in _ = KeyMatching.partialMatch(nestedObjects(depth), filter: nestedObjects(depth, leaf: 2)) }
        ),
    ]

    @Test func everyRecursivePathFitsTheBudgetPerLevel() {
        var measured: [String: Int] = [:]
        for operation in Self.operations {
            measured[operation.name] = StackProbe.bytesPerLevel(lowDepth: 200, highDepth: 1200, operation.run)
        }
        print("stack bytes per nesting level:", measured.sorted { $0.key < $1.key })
        for (name, bytes) in measured {
            #expect(bytes <= JSONNestingLimit.stackBytesPerLevel, "\(name) takes \(bytes) bytes per level")
        }
    }

    @Test func theMaximumDepthRunsOnASmallStack() {
        let stackBytes = 4 * 1024 * 1024
        let depth = JSONNestingLimit.maximumDepth(stackBytes: stackBytes)
        #expect(depth > 500)
        StackProbe.run(stackBytes: stackBytes) {
            for operation in Self.operations { operation.run(depth) }
        }
    }

    @Test func theLimitFollowsTheStackSize() {
        let perLevel = JSONNestingLimit.stackBytesPerLevel
        let reserve = JSONNestingLimit.reservedStackBytes
        #expect(JSONNestingLimit.maximumDepth(stackBytes: reserve + 1000 * perLevel) == 1000)
        #expect(JSONNestingLimit.maximumDepth(stackBytes: reserve / 2) == 1)
        #expect(JSONNestingLimit.mainThreadStackBytes() >= 1024 * 1024)
    }
}
