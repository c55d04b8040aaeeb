// A set of objects by identity: a `HashedSet` whose key is the object's address (times an odd
// constant for the hash). `QueryIndex` keeps the keys ending below each trie node in these.

/// Finds objects by identity (`===`).
enum IdentityMembership<Element: AnyObject>: SetMembership {
    static func hash(of element: Element) -> UInt64 { hash(ObjectIdentifier(element)) }

    static func hash(_ key: ObjectIdentifier) -> UInt64 {
        UInt64(UInt(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15
    }

    static func withKey<R>(of element: Element, _ body: (ObjectIdentifier) -> R) -> R {
        body(ObjectIdentifier(element))
    }

    static func matches(_ element: Element, _ key: ObjectIdentifier) -> Bool {
        ObjectIdentifier(element) == key
    }
}

/// An unordered set of distinct objects, compared by identity (`===`).
typealias ObjectSet<Element: AnyObject> = HashedSet<IdentityMembership<Element>>

extension HashedSet {
    /// Whether `element` (this exact object) is in the set.
    func contains<Object>(_ element: Object) -> Bool where Membership == IdentityMembership<Object> {
        member(ObjectIdentifier(element)) != nil
    }

    /// Adds `element`; false when it was already there.
    @discardableResult
    mutating func insert<Object>(_ element: Object) -> Bool where Membership == IdentityMembership<Object> {
        if contains(element) { return false }
        insertNew(element)
        return true
    }

    /// Removes `element`; false when it was not there.
    @discardableResult
    mutating func remove<Object>(_ element: Object) -> Bool where Membership == IdentityMembership<Object> {
        remove(ObjectIdentifier(element))
    }
}
