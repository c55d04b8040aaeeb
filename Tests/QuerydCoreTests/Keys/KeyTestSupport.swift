// Shared by the key tests: random keys and filters that exercise TanStack's partial matching (driven by
// QuerydTestSupport's seeded generator).

import QuerydJSON
import QuerydTestSupport

@testable import QuerydCore

/// Random keys and filters over a small vocabulary, so that filters match many keys.
struct KeyGenerator {
    var rng: SeededGenerator

    mutating func scalar() -> JSONValue {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .number(JSONNumber(Double(Int.random(in: 0..<3, using: &rng))))  // 0.0 == 0
        case 3, 4, 5: return .number(JSONNumber(Int.random(in: 0..<4, using: &rng)))
        default: return .string(["todos", "users", "posts", "1"].randomElement(using: &rng)!)
        }
    }

    mutating func element(depth: Int = 0) -> JSONValue {
        let roll = Int.random(in: 0..<10, using: &rng)
        if depth < 2, roll == 0 {
            return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in element(depth: depth + 1) })
        }
        if depth < 2, roll <= 2 {
            var members: [String: JSONValue] = [:]
            for name in ["page", "sort", "f"] where Bool.random(using: &rng) {
                members[name] = element(depth: depth + 1)
            }
            return .object(members)
        }
        return scalar()
    }

    mutating func key() -> QueryKey {
        QueryKey(elements: (0..<Int.random(in: 1...4, using: &rng)).map { _ in element() })
    }

    /// A filter element that generalises `element` (object subset, array prefix) or is random.
    mutating func generalise(_ element: JSONValue) -> JSONValue {
        switch element {
        case .array(let items) where Bool.random(using: &rng):
            return .array(items.prefix(Int.random(in: 0...items.count, using: &rng)).map { generalise($0) })
        case .object(let members) where Bool.random(using: &rng):
            return .object(members.filter { _ in Bool.random(using: &rng) }.mapValues { generalise($0) })
        default:
            return Int.random(in: 0..<8, using: &rng) == 0 ? self.element() : element
        }
    }

    mutating func filter(near keys: [QueryKey]) -> [JSONValue] {
        if Int.random(in: 0..<10, using: &rng) == 0 {
            return (0..<Int.random(in: 0...3, using: &rng)).map { _ in element() }
        }
        let base = keys.randomElement(using: &rng)!.elements
        return base.prefix(Int.random(in: 0...base.count, using: &rng)).map { generalise($0) }
    }
}

func isStructured(_ value: JSONValue) -> Bool {
    switch value {
    case .array, .object: return true
    default: return false
    }
}

extension QueryTable where Element == KeyedElement {
    /// Inserts elements with ids `next`, `next + 1`, … until `done` holds after an insertion;
    /// returns the elements inserted.
    mutating func insert(from next: Int, until done: (QueryTable) -> Bool) -> [KeyedElement] {
        var inserted: [KeyedElement] = []
        var id = next
        repeat {
            let element = KeyedElement(id)
            insert(element)
            inserted.append(element)
            id += 1
        } while !done(self)
        return inserted
    }
}
