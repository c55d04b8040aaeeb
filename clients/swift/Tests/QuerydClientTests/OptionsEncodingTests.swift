// Unit tests of the wire forms of options, keys and handler results (no daemon).

import QuerydClient
import QuerydJSON
import Testing

@Suite struct OptionsEncodingTests {
    struct TodoKey: QueryKey {
        let id: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode("todos")
            try container.encode(id)
        }
    }

    struct NotAnArray: QueryKey {
        let name: String
    }

    @Test func unsetOptionsSendNothing() {
        #expect(QueryOptions().jsonValue == [:])
        #expect(QueryOptions().isEmpty)
    }

    @Test func additionalMembersAreSentAsGivenAndReplaceTypedOnes() {
        var options = QueryOptions(staleTime: 1, gcTime: 2)
        options.additional = ["staleTime": 60000, "futureOption": ["x": true]]
        #expect(options.jsonValue == ["staleTime": 60000, "gcTime": 2000, "futureOption": ["x": true]])
        var onlyAdditional = QueryOptions()
        onlyAdditional.additional = ["enabled": false]
        #expect(!onlyAdditional.isEmpty && onlyAdditional.jsonValue == ["enabled": false])
    }

    @Test func secondsBecomeMillisecondsAndSwiftNamesMapToWireNames() {
        let options = QueryOptions(
            enabled: false, staleTime: 1.5, gcTime: .infinity, retry: .count(2, delay: 0.25),
            refetchOnAppear: .always, select: "/items", placeholderData: [], initialData: ["a"], meta: ["t": 1],
            timeout: 2, infinite: InfiniteOptions(initialPageParam: 0, maxPages: 3))
        #expect(
            options.jsonValue == [
                "enabled": false, "staleTime": 1500, "gcTime": nil, "retry": 2, "retryDelay": 250,
                "refetchOnSubscribe": "always", "select": "/items", "placeholderData": [], "initialData": ["a"],
                "meta": ["t": 1], "timeout": 2000, "infinite": ["initialPageParam": 0, "maxPages": 3],
            ])
    }

    /// Issue 14: `.infinity` was sent as `"static"`, so TanStack's `Infinity` was out of reach.
    @Test func infinityAndStaticStaleTimesAreDistinct() {
        #expect(QueryOptions(staleTime: .infinity).jsonValue == ["staleTime": "Infinity"])
        #expect(QueryOptions(staleTime: .seconds(.infinity)).jsonValue == ["staleTime": "Infinity"])
        #expect(QueryOptions(staleTime: .static).jsonValue == ["staleTime": "static"])
        #expect(QueryOptions(staleTime: 0.25).jsonValue == ["staleTime": 250])
    }

    @Test func retryShapesRetryOnMountAndNetworkModeUseTheDaemonsNames() {
        let backoff = RetryBackoff(base: 0.1, factor: 2, max: 0.3, jitter: 0.5)
        var options = QueryOptions(retry: .onCodes([503, -32004], backoff: backoff))
        options.retryOnMount = false
        #expect(
            options.jsonValue == [
                "retry": [503, -32004], "retryDelay": ["base": 100, "factor": 2, "max": 300, "jitter": 0.5],
                "retryOnMount": false,
            ])
        options = QueryOptions()
        options.networkMode = .offlineFirst
        #expect(options.jsonValue == ["networkMode": "offlineFirst"])
        #expect(MutationOptions(networkMode: .always).jsonValue == ["networkMode": "always"])
        let plain = RetryConfig(maxRetries: 1, backoff: RetryBackoff(base: 1, max: 30))
        #expect(
            MutationOptions(retry: plain).jsonValue == [
                "retry": 1, "retryDelay": ["base": 1000, "factor": 2, "max": 30000],
            ])
    }

    @Test func retryVariantsAndEveryTriggerOption() {
        #expect(QueryOptions(retry: .never).jsonValue == ["retry": false])
        #expect(QueryOptions(retry: .infinite).jsonValue == ["retry": true])
        let triggers = QueryOptions(
            refetchInterval: 0.5, refetchIntervalInBackground: true, refetchOnFocus: .always,
            refetchOnReconnect: .never, refetchOn: ["saved"], notifyOnChangeProps: ["data"], push: .patch, echo: false)
        #expect(
            triggers.jsonValue == [
                "refetchInterval": 500, "refetchIntervalInBackground": true, "refetchOnFocus": "always",
                "refetchOnReconnect": false, "refetchOn": ["saved"], "notifyOnChangeProps": ["data"], "push": "patch",
                "echo": false,
            ])
        #expect(QueryOptions(refetchOnFocus: .ifStale).jsonValue == ["refetchOnFocus": true])
    }

    @Test func typedKeysEncodeToArrays() async throws {
        let client = QueryClient(socketPath: "/nonexistent/queryd.sock", reconnect: .disabled)
        let observer = try await QueryObserver(client: client, key: TodoKey(id: 7))
        #expect(await observer.key == ["todos", 7])
        let stringKey = try await QueryObserver(client: client, key: ["todos", "open"])
        #expect(await stringKey.key == ["todos", "open"])
        let mixed: JSONKey = ["todos", 1, ["done": false]]
        #expect(mixed.description == #"["todos",1,{"done":false}]"#)
    }

    @Test func keysThatAreNotNonEmptyArraysAreRejected() async {
        let client = QueryClient(socketPath: "/nonexistent/queryd.sock", reconnect: .disabled)
        await #expect(throws: QueryClientError.self) {
            _ = try await QueryObserver(client: client, key: NotAnArray(name: "x"))
        }
        await #expect(throws: QueryClientError.self) {
            _ = try await QueryObserver(client: client, key: [String]())
        }
    }

    @Test func callsBeforeConnectingFailWithNotConnected() async {
        let client = QueryClient(socketPath: "/nonexistent/queryd.sock", reconnect: .disabled)
        await #expect(throws: QueryClientError.notConnected) { try await client.ping() }
        await #expect(throws: QueryClientError.self) { try await client.connect() }
    }

    @Test func fetchResultsCarryPageParamsOnlyWhenSet() throws {
        #expect(FetchResult.data(["x"]) == FetchResult(data: ["x"]))
        let page = FetchResult.page([1, 2], next: 3)
        #expect(page.nextPageParam == 3)
        #expect(page.previousPageParam == nil)
        #expect(try FetchResult.encoding(["a": 1]).data == ["a": 1])
    }
}
