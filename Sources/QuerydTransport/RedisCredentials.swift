// What the Redis link authenticates with: an optional ACL user and a password (`AUTH [user] password`).

/// Credentials sent with `AUTH` right after each connection is made.
public struct RedisCredentials: Sendable, Equatable {
    /// The ACL user (Redis 6 and later), or nil for the `default` user (`AUTH password`).
    public var user: String?
    /// The password.
    public var password: String

    /// Credentials for `user` (nil: the default user) with `password`.
    public init(user: String?, password: String) {
        self.user = user
        self.password = password
    }

    /// The AUTH command with these credentials.
    var authCommand: [[UInt8]] {
        if let user {
            return [Array("AUTH".utf8), Array(user.utf8), Array(password.utf8)]
        }
        return [Array("AUTH".utf8), Array(password.utf8)]
    }
}
