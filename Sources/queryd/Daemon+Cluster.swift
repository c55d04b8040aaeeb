// `queryd serve --cluster`: the node's link to Redis and its cluster layer, and what the daemon does
// when the cluster refuses it (another layout version in the namespace).

import Glibc
import QuerydServer
import QuerydTransport

/// What `--cluster` and its companions asked for.
struct ClusterSettings {
    var endpoint: RedisEndpoint
    var credentials: RedisCredentials?
    var namespace: String
    var nodeId: String
    var leaseMs: Int
}

extension Daemon {
    /// The link's retries: 50 ms doubling to at most 500 ms (jittered), so a node is back within
    /// about half a second of Redis (issue 18's target: convergence within 1 s).
    static let clusterReconnectDelays = ReconnectDelays(
        firstMilliseconds: 50, factor: 2, maximumMilliseconds: 500, jitter: 0.2)

    /// Joins the cluster: the link starts connecting (and keeps retrying with backoff); until it is
    /// up the node serves alone.
    func joinCluster(_ settings: ClusterSettings) {
        let link = RedisLink(
            loop: loop, endpoint: settings.endpoint, credentials: settings.credentials,
            reconnectDelays: Self.clusterReconnectDelays)
        let coordinator = ClusterCoordinator(
            server: server, bus: RedisClusterBus(link: link, loop: loop), namespace: settings.namespace,
            nodeId: settings.nodeId, leaseMs: settings.leaseMs, logger: logger)
        coordinator.onRefused = { [unowned self] reason in
            logger.critical("\(reason)")
            refusal = reason
            beginShutdown()
        }
        server.cluster = coordinator
        coordinator.start()
    }
}

extension ServeCommand {
    /// The `--cluster` settings, with the credentials from the environment or the password file.
    func clusterSettings(node: String) throws(Refusal) -> ClusterSettings? {
        guard let cluster else { return nil }
        let endpoint: RedisEndpoint
        do {
            endpoint = try RedisEndpoint(parsing: cluster)
        } catch {
            throw Refusal("--cluster \(cluster): \(error)")
        }
        let environment = ProcessEnvironment()
        var password = environment["QUERYD_REDIS_PASSWORD"]
        if let clusterPasswordFile {
            guard let text = try? String(contentsOfFile: clusterPasswordFile, encoding: .utf8) else {
                throw Refusal("--cluster-password-file \(clusterPasswordFile): cannot read it")
            }
            password = String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        }
        let credentials = password.map { RedisCredentials(user: environment["QUERYD_REDIS_USER"], password: $0) }
        return ClusterSettings(
            endpoint: endpoint, credentials: credentials, namespace: clusterNamespace, nodeId: node,
            leaseMs: clusterLeaseMs)
    }
}

/// Reads the process environment.
private struct ProcessEnvironment {
    subscript(name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
