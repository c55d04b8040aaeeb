// A network namespace joined to this one by a veth pair (`ip netns`, root only), with a
// redis-server inside it listening on the namespace's own address: queryd nodes reach Redis over
// TCP between two real addresses, not over loopback. Everything is removed when released.

import Glibc
import QuerydTestSupport

/// One namespace with Redis in it; the host side of the veth is `hostAddress`, Redis listens on
/// `redisAddress`:6379.
final class RedisInNetworkNamespace {
    let name: String
    let hostAddress: String
    let redisAddress: String
    private let hostInterface: String
    private let directory: String
    private var redisPID: pid_t?

    /// Whether the tests can make namespaces here (root, and `ip` installed).
    static var isAvailable: Bool { getuid() == 0 && ipPath != nil }

    /// Where `ip` (iproute2) is installed.
    static let ipPath: String? = ["/usr/sbin/ip", "/sbin/ip"].first { (path: String) in access(path, X_OK) == 0 }

    init() throws {
        let tag = "\(getpid() % 10_000)\(UInt8.random(in: 0...99))"
        name = "qdns\(tag)"
        hostInterface = "qdh\(tag)"
        let subnet = "10.231.\(UInt8.random(in: 1...250))"
        hostAddress = "\(subnet).1"
        redisAddress = "\(subnet).2"
        directory = "/tmp/\(name)"
        mkdir(directory, 0o700)
        let peer = "qdn\(tag)"
        try Self.run(["ip", "netns", "add", name])
        try Self.run(["ip", "link", "add", hostInterface, "type", "veth", "peer", "name", peer])
        try Self.run(["ip", "link", "set", peer, "netns", name])
        try Self.run(["ip", "addr", "add", "\(hostAddress)/24", "dev", hostInterface])
        try Self.run(["ip", "link", "set", hostInterface, "up"])
        try Self.run(["ip", "netns", "exec", name, "ip", "addr", "add", "\(redisAddress)/24", "dev", peer])
        try Self.run(["ip", "netns", "exec", name, "ip", "link", "set", peer, "up"])
        try Self.run(["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"])
        redisPID = try ChildProcess.spawn(
            [
                Self.ipPath ?? "ip", "netns", "exec", name, "redis-server", "--bind", redisAddress, "--port", "6379",
                "--protected-mode", "no", "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", directory,
            ], output: directory + "/redis.log", errors: directory + "/redis.log")
    }

    deinit {
        if let redisPID {
            kill(redisPID, SIGKILL)
            var status: Int32 = 0
            waitpid(redisPID, &status, 0)
        }
        try? Self.run(["ip", "netns", "del", name])
        try? Self.run(["ip", "link", "del", hostInterface])
        unlink(directory + "/redis.log")
        rmdir(directory)
    }

    /// `redis://<redisAddress>:6379`.
    var url: String { "redis://\(redisAddress):6379" }

    /// Runs a command to its end; a failure is an error carrying its output.
    static func run(_ arguments: [String]) throws {
        let output = "/tmp/qdns-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
        defer { unlink(output) }
        let path = arguments[0] == "ip" ? ipPath ?? "ip" : arguments[0]
        let pid = try ChildProcess.spawn([path] + arguments.dropFirst(), output: output, errors: output)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard status == 0 else {
            throw IntegrationError("\(arguments.joined(separator: " ")) failed (\(status)): \(TestFile.text(output))")
        }
    }
}
