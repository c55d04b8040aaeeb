// Push granularity over the wire (protocol 2): `options.push` "meta" (states without data, with
// dataVersion) and "patch" (full state first, then merge patches from the data last sent, full
// states where a patch cannot say it, no data when it did not change), and `options.echo: false`
// (no push for the connection's own query.set).

import QuerydJSON
import Testing

@Suite("Push modes")
struct PushModeTests {
    /// The params of the next `query.changed` for `subscription`.
    private func nextPush(_ client: LineClient, _ subscription: JSONValue) throws -> JSONValue {
        let push = try client.nextNotification(method: "query.changed")
        #expect(push.member("params")?.member("subscription") == subscription)
        return push.member("params") ?? nil
    }

    @Test func metaStatesCarryNoDataAndTheDataVersion() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let writer = try daemon.connect()
        let set = try writer.result("query.set", ["key": ["m"], "data": ["n": 1]])
        let reader = try daemon.connect()
        let reply = try reader.result(
            "query.subscribe", ["key": ["m"], "options": ["push": "meta", "staleTime": 60000]])
        let subscription = try #require(reply.member("subscription"))
        let first = try #require(reply.member("state"))
        #expect(!first.has("data"))
        #expect(first.member("dataVersion") == set.member("version"))
        #expect(first.member("version") == set.member("version"))
        // New data: a new dataVersion, still no data.
        let second = try writer.result("query.set", ["key": ["m"], "data": ["n": 2]])
        let pushed = try nextPush(reader, subscription)
        #expect(pushed.member("state")?.has("data") == false)
        #expect(pushed.member("state")?.member("dataVersion") == second.member("version"))
        #expect(!pushed.has("patch"))
        // Only a flag changes: the dataVersion stays.
        _ = try writer.result("queries.invalidate", ["filter": ["key": ["m"]], "refetchType": "none"])
        let flipped = try nextPush(reader, subscription).member("state")
        #expect(flipped?.member("isInvalidated") == true)
        #expect(flipped?.member("dataVersion") == second.member("version"))
        #expect(flipped?.has("data") == false)
        // A protocol-1 subscription of the same key still gets full states without dataVersion.
        let plain = try reader.result("query.subscribe", ["key": ["m"], "options": ["staleTime": 60000]])
        #expect(plain.member("state")?.member("data") == ["n": 2])
        #expect(plain.member("state")?.has("dataVersion") == false)
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func patchPushesPatchFromTheDataLastSent() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let writer = try daemon.connect()
        _ = try writer.result("query.set", ["key": ["p"], "data": ["a": 1, "b": ["c": 2], "big": "0123456789"]])
        let reader = try daemon.connect()
        let reply = try reader.result(
            "query.subscribe", ["key": ["p"], "options": ["push": "patch", "staleTime": 60000]])
        let subscription = try #require(reply.member("subscription"))
        let first = try #require(reply.member("state"))
        #expect(first.member("data") == ["a": 1, "b": ["c": 2], "big": "0123456789"])
        let base = try #require(first.member("dataVersion"))
        // One member changes: a merge patch naming it.
        let changed = try writer.result("query.set", ["key": ["p"], "mergePatch": ["b": ["c": 3]]])
        let patched = try nextPush(reader, subscription)
        #expect(
            patched.member("patch")
                == ["baseVersion": base, "version": changed.member("version")!, "patch": ["b": ["c": 3]]])
        #expect(patched.member("state")?.has("data") == false)
        #expect(patched.member("state")?.member("dataVersion") == changed.member("version"))
        // Data unchanged (only isInvalidated): neither data nor patch, the same dataVersion.
        _ = try writer.result("queries.invalidate", ["filter": ["key": ["p"]], "refetchType": "none"])
        let unchanged = try nextPush(reader, subscription)
        #expect(!unchanged.has("patch"))
        #expect(unchanged.member("state")?.has("data") == false)
        #expect(unchanged.member("state")?.member("dataVersion") == changed.member("version"))
        // A null member cannot be written by a merge patch: the full state.
        let nulled = try writer.result("query.set", ["key": ["p"], "data": ["a": nil, "big": "0123456789"]])
        let full = try nextPush(reader, subscription)
        #expect(!full.has("patch"))
        #expect(full.member("state")?.member("data") == ["a": nil, "big": "0123456789"])
        #expect(full.member("state")?.member("dataVersion") == nulled.member("version"))
        // Removed: no data, no dataVersion.
        _ = try writer.result("queries.reset", ["filter": ["key": ["p"]]])
        let reset = try nextPush(reader, subscription)
        #expect(reset.member("state")?.has("data") == false)
        #expect(reset.member("state")?.has("dataVersion") == false)
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func setOptionsChangesTheModeAndRestartsThePatchBase() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let client = try daemon.connect()
        _ = try client.result("query.set", ["key": ["s"], "data": ["a": 1, "pad": "..........."]])
        let subscription = try #require(
            try client.result("query.subscribe", ["key": ["s"], "options": ["push": "meta", "staleTime": 60000]])
                .member("subscription"))
        let state = try client.result(
            "query.setOptions", ["subscription": subscription, "options": ["push": "patch", "staleTime": 60000]])
        #expect(state.member("data") == ["a": 1, "pad": "..........."])
        let writer = try daemon.connect()
        let second = try writer.result("query.set", ["key": ["s"], "mergePatch": ["a": 2]])
        let push = try nextPush(client, subscription)
        #expect(push.member("patch")?.member("baseVersion") == state.member("dataVersion"))
        #expect(push.member("patch")?.member("version") == second.member("version"))
        #expect(push.member("patch")?.member("patch") == ["a": 2])
        // Options without push: back to full states.
        let plain = try client.result("query.setOptions", ["subscription": subscription, "options": [:]])
        #expect(plain.member("data") == ["a": 2, "pad": "..........."] && !plain.has("dataVersion"))
        #expect(try client.call("query.subscribe", ["key": ["s"], "options": ["push": "all"]]).errorCode == -32602)
        #expect(try client.call("query.subscribe", ["key": ["s"], "options": ["echo": 1]]).errorCode == -32602)
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func echoFalseSuppressesPushesOfTheConnectionsOwnWrites() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let client = try daemon.connect()
        _ = try client.result("query.set", ["key": ["e"], "data": 1])
        let quiet = try #require(
            try client.result("query.subscribe", ["key": ["e"], "options": ["echo": false, "staleTime": 60000]])
                .member("subscription"))
        let other = try daemon.connect()
        let loud = try #require(
            try other.result("query.subscribe", ["key": ["e"], "options": ["echo": false, "staleTime": 60000]])
                .member("subscription"))
        // Its own write: the reply only. The other connection's echo:false subscription is pushed.
        let own = try client.result("query.set", ["key": ["e"], "data": 2])
        #expect(own.member("data") == 2)
        try client.expectSilence()
        #expect(try nextPush(other, loud).member("state")?.member("data") == 2)
        // Another connection's write is pushed, with the newest state.
        _ = try other.result("query.set", ["key": ["e"], "data": 3])
        #expect(try nextPush(client, quiet).member("state")?.member("data") == 3)
        try other.expectSilence()
        #expect(try daemon.stop() == .exited(0))
    }
}
