// Writes a QueryResult as the protocol's state object, in canonical member order (sorted by
// name, as JSONValue's encoder would), splicing the query's pre-encoded data when it has it.

public import QuerydJSON

/// Which members a state object carries: protocol 1's (`data`, no `dataVersion`), or, for the
/// `meta` and `patch` push modes, `dataVersion` with or without `data`.
public enum StateShape: Sendable, Hashable {
    case standard
    case withDataVersion
    case withoutData

    var hasData: Bool { self != .withoutData }
    var hasDataVersion: Bool { self != .standard }
}

extension QueryResult {
    /// Appends the state object's JSON to `buffer`.
    public func write(to buffer: inout [UInt8]) {
        write(to: &buffer, shape: .standard)
    }

    /// Appends the state object's JSON, with the members of `shape`, to `buffer`.
    public func write(to buffer: inout [UInt8], shape: StateShape) {
        // Take the caller's buffer (swap, not copy) so appending never duplicates what it holds.
        var writer = MemberWriter()
        swap(&writer.buffer, &buffer)
        writer.open()
        if shape.hasData {
            if let encodedData {
                writer.raw("data", encodedData)
            } else if let data {
                writer.value("data", data)
            }
        }
        writer.int("dataUpdateCount", Int64(dataUpdateCount))
        writer.int("dataUpdatedAt", dataUpdatedAt)
        if shape.hasDataVersion, let dataVersion { writer.int("dataVersion", Int64(truncatingIfNeeded: dataVersion)) }
        writer.raw("epoch", encodedEpoch)
        writer.value("error", error ?? .null)
        writer.int("errorUpdateCount", Int64(errorUpdateCount))
        writer.int("errorUpdatedAt", errorUpdatedAt)
        writer.int("failureCount", Int64(failureCount))
        writer.value("failureReason", failureReason ?? .null)
        writer.string("fetchStatus", fetchStatus.rawValue)
        if let infinite {
            writer.bool("hasNextPage", infinite.hasNextPage)
            writer.bool("hasPreviousPage", infinite.hasPreviousPage)
        }
        writer.bool("isError", isError)
        if let infinite {
            writer.bool("isFetchNextPageError", infinite.isFetchNextPageError)
            writer.bool("isFetchPreviousPageError", infinite.isFetchPreviousPageError)
        }
        writer.bool("isFetched", isFetched)
        writer.bool("isFetching", isFetching)
        if let infinite {
            writer.bool("isFetchingNextPage", infinite.isFetchingNextPage)
            writer.bool("isFetchingPreviousPage", infinite.isFetchingPreviousPage)
        }
        writer.bool("isInvalidated", isInvalidated)
        writer.bool("isLoading", isLoading)
        writer.bool("isPaused", isPaused)
        writer.bool("isPending", isPending)
        writer.bool("isPlaceholderData", isPlaceholderData)
        writer.bool("isRefetching", isRefetching)
        writer.bool("isStale", isStale)
        writer.bool("isSuccess", isSuccess)
        writer.name("key")
        key.write(to: &writer.buffer)
        if let observers { writer.int("observers", Int64(observers)) }
        writer.string("status", status.rawValue)
        writer.int("version", Int64(truncatingIfNeeded: version))
        buffer = writer.finish()
    }

    /// The state object as a JSON value (for tests and cold paths).
    public var jsonValue: JSONValue {
        var bytes: [UInt8] = []
        write(to: &bytes)
        // The writer only produces valid JSON, so parsing it back cannot fail.
        return try! JSONParser.parse(bytes)
    }
}

/// Appends `"name":value` members of one object, adding the braces and commas.
private struct MemberWriter {
    var buffer: [UInt8] = []
    var first = true

    mutating func open() {
        buffer.append(UInt8(ascii: "{"))
    }

    mutating func name(_ name: StaticString) {
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        buffer.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { buffer.append(contentsOf: $0) }
        buffer.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func raw(_ key: StaticString, _ bytes: [UInt8]) {
        name(key)
        buffer.append(contentsOf: bytes)
    }

    mutating func value(_ key: StaticString, _ value: JSONValue) {
        name(key)
        value.write(to: &buffer)
    }

    mutating func int(_ key: StaticString, _ value: Int64) {
        name(key)
        JSONWriter.writeNumber(JSONNumber(value), to: &buffer)
    }

    mutating func bool(_ key: StaticString, _ value: Bool) {
        name(key)
        if value { buffer.append(contentsOf: "true".utf8) } else { buffer.append(contentsOf: "false".utf8) }
    }

    mutating func string(_ key: StaticString, _ value: String) {
        name(key)
        JSONWriter.writeString(value, to: &buffer)
    }

    consuming func finish() -> [UInt8] {
        buffer.append(UInt8(ascii: "}"))
        return buffer
    }
}
