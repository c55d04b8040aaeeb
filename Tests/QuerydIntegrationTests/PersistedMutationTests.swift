// `--persist` keeps mutations paused while offline: the real daemon is stopped with one paused
// mutation, restarted on the same file, and the mutation comes back paused (new id, no caller),
// waits for a mutator for its key and the network, then runs with its options; once it settled, a
// further restart brings nothing back.

import QuerydJSON
import Testing

@Suite("Persisted offline mutations")
struct PersistedMutationTests {
    private typealias Store = PersistenceRestartTests.StoreDirectory

    @Test("a mutation paused offline survives a restart and resumes once a mutator and the network are there")
    func pausedMutationSurvivesARestart() throws {
        let store = try Store()
        let flags = PersistenceRestartTests.flags(store)
        do {
            let first = try DaemonProcess(flags: flags)
            let client = try first.connect()
            _ = try client.result("network.setOnline", ["online": false])
            _ = try client.sendRequest(
                "mutation.run",
                [
                    "key": ["todos", "add"], "variables": ["title": "walk dog"],
                    "options": ["meta": "from the train", "setData": [["key": ["last"], "fromResult": "/title"]]],
                ])
            let listed = try client.result("mutations.list").asArray ?? []
            #expect(listed.map { $0.member("isPaused") } == [true])
            #expect(try first.stop() == .exited(0))
        }
        let second = try DaemonProcess(flags: flags)
        try PersistenceRestartTests.waitForLog(second, containing: "persistence: restored 1 paused mutations")
        let watcher = try second.connect()
        let subscribed = try watcher.result("mutation.subscribe")
        let restored = try #require(subscribed.member("mutations")?.asArray?.first)
        expectJSON(
            restored,
            [
                "id": 1, "key": ["todos", "add"], "status": "pending", "variables": ["title": "walk dog"],
                "error": nil, "failureCount": 0, "failureReason": nil, "isPaused": true,
                "submittedAt": .number(JSONNumber(clockStart)), "meta": "from the train", "version": 1,
            ])
        // Offline, a mutator alone does not start it; online without a mutator neither.
        let mutator = try second.connect()
        _ = try watcher.result("network.setOnline", ["online": false])
        let registration = try mutator.result("mutator.register", ["key": ["todos"]]).member("mutator")!
        try mutator.expectSilence()
        _ = try mutator.result("mutator.unregister", ["mutator": registration])
        _ = try watcher.result("network.setOnline", ["online": true])
        try mutator.expectSilence()
        _ = try mutator.result("mutator.register", ["key": ["todos"]])
        let mutate = try mutator.nextRequest(method: "mutate")
        #expect(mutate.member("params")?.member("variables") == ["title": "walk dog"])
        try mutator.respond(id: mutate.member("id")!, result: ["data": ["id": 7, "title": "walk dog"]])
        let states = [
            try watcher.nextNotification(method: "mutation.changed"),
            try watcher.nextNotification(method: "mutation.changed"),
        ].map { $0.member("params")?.member("mutation") }
        #expect(states.map { $0?.member("status") } == ["pending", "success"])
        #expect(states.map { $0?.member("isPaused") } == [false, false])
        #expect(try watcher.result("query.get", ["key": ["last"]]).member("data") == "walk dog")
        #expect(try second.stop() == .exited(0))

        let third = try DaemonProcess(flags: flags)
        try PersistenceRestartTests.waitForLog(third, containing: "persistence: restored 0 paused mutations")
        #expect(try third.connect().result("mutations.list") == [])
        #expect(try third.stop() == .exited(0))
    }
}

extension PersistedMutationTests {
    @Test("--persist-sync always, kill -9: the paused mutation is back; one that started is not")
    func pausedMutationSurvivesKillNine() throws {
        let store = try Store()
        // With `always`, a reply is sent only once the changes before it are durable.
        let flags = PersistenceRestartTests.flags(store, extra: ["--persist-sync", "always"])
        do {
            let first = try DaemonProcess(flags: flags)
            let client = try first.connect()
            _ = try client.result("network.setOnline", ["online": false])
            // ["b"] then ["a"], one scope: once online, ["b"] goes out to its mutator and ["a"] waits.
            _ = try client.sendRequest("mutation.run", ["key": ["b"], "variables": 1, "options": ["scope": "s"]])
            _ = try client.sendRequest("mutation.run", ["key": ["a"], "variables": 2, "options": ["scope": "s"]])
            // ["b"] starts at its mutator: the paused ones are rewritten without it.
            _ = try client.result("mutator.register", ["key": ["b"]])
            _ = try client.result("network.setOnline", ["online": true])
            _ = try client.nextRequest(method: "mutate")
            first.kill9()
        }
        let second = try DaemonProcess(flags: flags)
        try PersistenceRestartTests.waitForLog(second, containing: "persistence: restored 1 paused mutations")
        let listed = try second.connect().result("mutations.list").asArray ?? []
        #expect(listed.map { $0.member("key") } == [["a"]])
        #expect(listed.map { $0.member("isPaused") } == [true])
        #expect(try second.stop() == .exited(0))
    }
}
