// Bridges Codable types and JSONValue through Foundation's JSON coders.

public import QuerydJSON

// FoundationEssentials where it exists (Linux): full Foundation loads ICU, which costs every program that
// links the client about 6 ms of start-up (measured on `queryd`, release build).
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Encoding and decoding between Codable values and ``JSONValue``.
public enum JSONCoding {
    /// Encodes `value` with `JSONEncoder` and parses the result into a JSONValue.
    public static func encode(_ value: some Encodable) throws(QueryClientError) -> JSONValue {
        if let json = value as? JSONValue { return json }
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw .coding("cannot encode \(type(of: value)): \(error)")
        }
        do {
            return try JSONParser.parse([UInt8](data))
        } catch {
            throw .coding("encoder produced invalid JSON: \(error)")
        }
    }

    /// Decodes `value` into `type` with `JSONDecoder` (JSONValue itself is returned unchanged).
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(QueryClientError) -> T {
        if let same = value as? T { return same }
        do {
            return try JSONDecoder().decode(T.self, from: Data(value.encoded))
        } catch {
            throw .coding("cannot decode \(T.self) from \(value.encodedString): \(error)")
        }
    }
}

/// Wraps a JSONValue so it can go through an `Encoder` (used by ``JSONKey``).
struct EncodableJSON: Encodable {
    let value: JSONValue

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .number(let number):
            var container = encoder.singleValueContainer()
            if let int = number.int64Value {
                try container.encode(int)
            } else {
                try container.encode(number.doubleValue)
            }
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(EncodableJSON(value: item)) }
        case .object(let members):
            var container = encoder.container(keyedBy: MemberName.self)
            for (name, member) in members {
                try container.encode(EncodableJSON(value: member), forKey: MemberName(name))
            }
        }
    }

    private struct MemberName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}
