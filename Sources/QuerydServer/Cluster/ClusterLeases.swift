// Lease bookkeeping: the fetch leases this node holds (one per attempt it sent to a local fetcher
// after winning `SET NX`), and the attempts waiting on another node's lease, by what it covers.

import QuerydCore

/// What one lease covers: every fetch of an ordinary query's key, or one page of an infinite query.
struct LeaseSubject: Hashable {
    let key: QueryKey
    let page: ClusterPage?

    init(key: QueryKey, page: ClusterPage?) {
        self.key = key
        self.page = page
    }

    /// What `request`'s lease covers.
    init(_ request: FetchRequest) {
        self.init(key: request.key, page: ClusterPage(request.page))
    }
}

/// The leases held and the attempts waiting; plain values, no I/O.
struct ClusterLeases {
    /// A lease this node holds for one attempt at a local fetcher.
    struct Held {
        let subject: LeaseSubject
        /// The lease's value in Redis: only its holder deletes or extends it.
        let token: [UInt8]
        /// The query's gcTime when the lease was taken: the shared data's expiry.
        let gcTime: Int64?
    }

    /// An attempt kept from the fetchers while another node holds the key's lease.
    struct Waiting {
        let request: FetchRequest
        /// When the lease was last tried (in the coordinator's ticks).
        var triedAt: Int
    }

    private(set) var held: [AttemptID: Held] = [:]
    private var waiting: [LeaseSubject: [Waiting]] = [:]
    private var waitingKeys: [AttemptID: LeaseSubject] = [:]

    /// How many attempts wait on other nodes' leases.
    var waitingCount: Int { waitingKeys.count }

    mutating func hold(_ attempt: AttemptID, _ lease: Held) {
        held[attempt] = lease
    }

    /// Forgets the lease of `attempt`, returning it if this node held one.
    mutating func release(_ attempt: AttemptID) -> Held? {
        held.removeValue(forKey: attempt)
    }

    /// Keeps `request` until the lease's holder publishes an outcome or the lease is tried again.
    mutating func wait(_ request: FetchRequest, triedAt: Int) {
        let subject = LeaseSubject(request)
        waiting[subject, default: []].append(Waiting(request: request, triedAt: triedAt))
        waitingKeys[request.attempt] = subject
    }

    /// Takes every attempt waiting on the lease of `subject`.
    mutating func takeWaiting(for subject: LeaseSubject) -> [FetchRequest] {
        guard let list = waiting.removeValue(forKey: subject) else { return [] }
        for entry in list { waitingKeys[entry.request.attempt] = nil }
        return list.map(\.request)
    }

    /// Stops waiting for `attempt` (withdrawn by the engine); whether it was waiting.
    mutating func withdraw(_ attempt: AttemptID) -> Bool {
        guard let subject = waitingKeys.removeValue(forKey: attempt) else { return false }
        waiting[subject]?.removeAll { $0.request.attempt == attempt }
        if waiting[subject]?.isEmpty == true { waiting[subject] = nil }
        return true
    }

    /// Takes the attempts whose lease was last tried `interval` ticks or more before `now`.
    mutating func takeDue(at now: Int, after interval: Int) -> [FetchRequest] {
        var due: [FetchRequest] = []
        for (subject, list) in waiting {
            let (ready, later) = (
                list.filter { now - $0.triedAt >= interval }, list.filter { now - $0.triedAt < interval }
            )
            guard !ready.isEmpty else { continue }
            waiting[subject] = later.isEmpty ? nil : later
            for entry in ready {
                waitingKeys[entry.request.attempt] = nil
                due.append(entry.request)
            }
        }
        return due
    }

    /// Takes every waiting attempt (the link is down: they go to local fetchers).
    mutating func takeAllWaiting() -> [FetchRequest] {
        let all = waiting.values.flatMap { $0.map(\.request) }
        waiting = [:]
        waitingKeys = [:]
        return all
    }
}
