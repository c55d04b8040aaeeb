// Resolving the Redis host name without blocking the loop: hiredis would call getaddrinfo on the loop thread, so a
// name is looked up first with uv_getaddrinfo (libuv's thread pool) and hiredis gets the numeric address.
import CLibUV
import Glibc

/// One asynchronous lookup of a host name. The request's `data` holds a +1 reference to this object until the
/// lookup callback, which libuv calls exactly once (with UV_ECANCELED after `cancel()` if it had not started).
final class RedisHostLookup {
    /// The outcome: the numeric address (IPv4 or IPv6), or why the name did not resolve.
    enum Outcome {
        case address(String)
        case failure(String)
    }

    private let request = allocateZeroed(uv_getaddrinfo_t.self)
    private let completion: (Outcome) -> Void

    private init(completion: @escaping (Outcome) -> Void) {
        self.completion = completion
    }

    deinit {
        request.deallocate()
    }

    /// True when `host` is already a numeric IPv4 or IPv6 address (nothing to look up).
    static func isNumeric(_ host: String) -> Bool {
        var buffer = in6_addr()
        return inet_pton(AF_INET, host, &buffer) == 1 || inet_pton(AF_INET6, host, &buffer) == 1
    }

    /// Starts looking up `host` on `loop`; `completion` runs on the loop thread. Returns nil (and `completion` has
    /// run) if libuv refused to start the lookup.
    static func start(
        loop: EventLoop, host: String, completion: @escaping (Outcome) -> Void
    ) -> RedisHostLookup? {
        let lookup = RedisHostLookup(completion: completion)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        lookup.request.pointee.data = Unmanaged.passRetained(lookup).toOpaque()
        let status = uv_getaddrinfo(
            loop.rawLoop, lookup.request,
            { request, status, result in
                // Safety: balances the `passRetained` above; libuv calls this exactly once per started request.
                let lookup = Unmanaged<RedisHostLookup>.fromOpaque(request!.pointee.data).takeRetainedValue()
                defer { uv_freeaddrinfo(result) }
                lookup.completion(RedisHostLookup.outcome(status: status, result: result))
            }, host, nil, &hints)
        guard status == 0 else {
            Unmanaged.passUnretained(lookup).release()
            completion(.failure(String(cString: uv_strerror(status))))
            return nil
        }
        return lookup
    }

    /// Asks libuv to drop the lookup if it has not started on the thread pool; the callback still runs.
    func cancel() {
        uv_cancel(UnsafeMutableRawPointer(request).assumingMemoryBound(to: uv_req_t.self))
    }

    private static func outcome(status: Int32, result: UnsafeMutablePointer<addrinfo>?) -> Outcome {
        guard status == 0, let first = result, let address = first.pointee.ai_addr else {
            return .failure(String(cString: uv_strerror(status == 0 ? UV_EAI_NONAME.rawValue : status)))
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let written =
            first.pointee.ai_family == AF_INET6
            ? address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { uv_ip6_name($0, &text, text.count) }
            : address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { uv_ip4_name($0, &text, text.count) }
        guard written == 0 else { return .failure(String(cString: uv_strerror(written))) }
        return .address(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
