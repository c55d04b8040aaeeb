// The OpenRPC 1.3.0 description of queryd protocol 2, which `rpc.discover` serves.
// The text must stay the same document (as parsed JSON) as protocol/openrpc.json, which is generated
// from it. `rpc.discover` serves it restricted to the dispatcher's method table (plus `$/cancelRequest`),
// so the listed methods always equal the served ones; a test checks that every method is documented.

/// The machine-readable description of the wire protocol, served by `rpc.discover`.
///
/// See protocol/README.md for the prose specification; every method here has a page under
/// protocol/methods/.
enum OpenRPCDocument {
    /// Methods that exist only when a `queryd serve` flag is on: method name to gate name (the same
    /// as each method's `x-gate` in the document).
    ///
    /// `manual-clock` is `--manual-clock`; `test-methods` is `--test-methods`.
    static let gatedMethods: [String: String] = [
        "clock.advance": "manual-clock",
        "clock.now": "manual-clock",
        "test.echo": "test-methods",
        "test.getData": "test-methods",
        "test.subtract": "test-methods",
        "test.sum": "test-methods",
    ]

    /// The complete OpenRPC document (JSON text) listing every method, gated ones included.
    static let text: String = #"""
        {
          "components": {
            "schemas": {
              "CachedData": {
                "additionalProperties": false,
                "properties": {
                  "data": {},
                  "dataUpdatedAt": {
                    "minimum": 0,
                    "type": "integer"
                  }
                },
                "required": [
                  "data",
                  "dataUpdatedAt"
                ],
                "type": "object"
              },
              "ErrorObject": {
                "description": "A JSON-RPC error object.",
                "properties": {
                  "code": {
                    "type": "integer"
                  },
                  "data": {},
                  "message": {
                    "type": "string"
                  }
                },
                "required": [
                  "code",
                  "message"
                ],
                "type": "object"
              },
              "FetcherId": {
                "description": "Never reused in the daemon's life.",
                "minimum": 1,
                "type": "integer"
              },
              "Hello": {
                "properties": {
                  "capabilities": {
                    "description": "Every served method name, $/cancelRequest and fetch.progress, sorted, then feature names (feature:manual-clock), then the names of what protocol 2 adds (option:push, option:echo, field:epoch, field:dataVersion, notification:$/closing, param:cursor, param:_meta).",
                    "items": {
                      "type": "string"
                    },
                    "type": "array"
                  },
                  "epoch": {
                    "description": "The cache generation, as in every state's epoch.",
                    "type": "string"
                  },
                  "node": {
                    "description": "Which daemon answered: <host name>:<pid> unless configured.",
                    "type": "string"
                  },
                  "protocol": {
                    "description": "The protocol both sides speak: the highest one in the daemon's range (1 to 2) and the client's.",
                    "enum": [
                      1,
                      2
                    ],
                    "type": "integer"
                  },
                  "server": {
                    "const": "queryd"
                  },
                  "version": {
                    "type": "string"
                  }
                },
                "required": [
                  "server",
                  "version",
                  "protocol",
                  "capabilities",
                  "node",
                  "epoch"
                ],
                "type": "object"
              },
              "JsonValue": {
                "description": "Any JSON value."
              },
              "KeyPrefix": {
                "description": "Matches keys that start with these elements; object elements match partially.",
                "items": {},
                "type": "array"
              },
              "MutationFilter": {
                "additionalProperties": false,
                "description": "Which mutations are covered: key prefix (partial object match, or identity with exact) and status.",
                "properties": {
                  "exact": {
                    "default": false,
                    "type": "boolean"
                  },
                  "key": {
                    "$ref": "#/components/schemas/KeyPrefix"
                  },
                  "status": {
                    "enum": [
                      "idle",
                      "pending",
                      "success",
                      "error"
                    ]
                  }
                },
                "type": "object"
              },
              "MutationOptions": {
                "additionalProperties": false,
                "properties": {
                  "gcTime": {
                    "description": "Ms a settled mutation stays listed (default 300000; null: until the daemon stops).",
                    "oneOf": [
                      {
                        "minimum": 0,
                        "type": "integer"
                      },
                      {
                        "type": "null"
                      }
                    ]
                  },
                  "invalidate": {
                    "description": "Filters invalidated after success (active matches refetch). A key another pending mutation wrote optimistically is invalidated once that mutation settles.",
                    "items": {
                      "$ref": "#/components/schemas/QueryFilter"
                    },
                    "type": "array"
                  },
                  "optimistic": {
                    "description": "Writes made before the mutator is called (the key's running fetch is cancelled first); rolled back exactly if the mutation fails.",
                    "items": {
                      "additionalProperties": false,
                      "properties": {
                        "data": {
                          "$ref": "#/components/schemas/JsonValue"
                        },
                        "key": {
                          "$ref": "#/components/schemas/QueryKey"
                        },
                        "mergePatch": {
                          "$ref": "#/components/schemas/JsonValue"
                        }
                      },
                      "required": [
                        "key"
                      ],
                      "type": "object"
                    },
                    "type": "array"
                  },
                  "retry": {
                    "description": "Retries after a failed attempt (default 0); true retries forever.",
                    "oneOf": [
                      {
                        "minimum": 0,
                        "type": "integer"
                      },
                      {
                        "type": "boolean"
                      }
                    ]
                  },
                  "retryDelay": {
                    "description": "Fixed delay between attempts in ms; absent means min(1000*2^(failures-1), 30000).",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "scope": {
                    "description": "Mutations with the same scope run one after another, in submission order.",
                    "type": "string"
                  },
                  "setData": {
                    "description": "Writes of the mutator's data (the value at the JSON Pointer fromResult) to queries after success; a pointer that does not resolve invalidates the key instead.",
                    "items": {
                      "additionalProperties": false,
                      "properties": {
                        "fromResult": {
                          "type": "string"
                        },
                        "key": {
                          "$ref": "#/components/schemas/QueryKey"
                        }
                      },
                      "required": [
                        "key",
                        "fromResult"
                      ],
                      "type": "object"
                    },
                    "type": "array"
                  },
                  "timeout": {
                    "description": "Ms an attempt may take; then the mutator gets $/cancelRequest and the attempt fails with {code:-32004}. Default: the daemon's --attempt-timeout-ms (60000; protocol 2).",
                    "minimum": 0,
                    "type": "integer"
                  }
                },
                "type": "object"
              },
              "MutationState": {
                "additionalProperties": false,
                "properties": {
                  "data": {
                    "$ref": "#/components/schemas/JsonValue"
                  },
                  "error": {
                    "description": "{code:-32007, message:'Mutation failed', data: the mutator's error} or null.",
                    "oneOf": [
                      {
                        "$ref": "#/components/schemas/ErrorObject"
                      },
                      {
                        "type": "null"
                      }
                    ]
                  },
                  "failureCount": {
                    "minimum": 0,
                    "type": "integer"
                  },
                  "failureReason": {
                    "oneOf": [
                      {
                        "$ref": "#/components/schemas/ErrorObject"
                      },
                      {
                        "type": "null"
                      }
                    ]
                  },
                  "id": {
                    "minimum": 1,
                    "type": "integer"
                  },
                  "isPaused": {
                    "description": "Waiting for an earlier mutation of its scope, or for the network.",
                    "type": "boolean"
                  },
                  "key": {
                    "$ref": "#/components/schemas/QueryKey"
                  },
                  "scope": {
                    "type": "string"
                  },
                  "status": {
                    "enum": [
                      "idle",
                      "pending",
                      "success",
                      "error"
                    ]
                  },
                  "submittedAt": {
                    "type": "integer"
                  },
                  "variables": {
                    "$ref": "#/components/schemas/JsonValue"
                  },
                  "version": {
                    "minimum": 1,
                    "type": "integer"
                  }
                },
                "required": [
                  "id",
                  "key",
                  "status",
                  "variables",
                  "error",
                  "failureCount",
                  "failureReason",
                  "isPaused",
                  "submittedAt",
                  "version"
                ],
                "type": "object"
              },
              "MutatorId": {
                "description": "Never reused in the daemon's life.",
                "minimum": 1,
                "type": "integer"
              },
              "QueryFilter": {
                "additionalProperties": false,
                "description": "Absent, null or {} matches every query; all given members must hold. Unknown members are rejected with -32602 (field filter.<name>).",
                "properties": {
                  "exact": {
                    "default": false,
                    "description": "Match only the key equal to key (which must then be non-empty).",
                    "type": "boolean"
                  },
                  "fetchStatus": {
                    "enum": [
                      "idle",
                      "fetching",
                      "paused"
                    ]
                  },
                  "key": {
                    "allOf": [
                      {
                        "$ref": "#/components/schemas/KeyPrefix"
                      }
                    ],
                    "description": "Absent matches every key."
                  },
                  "stale": {
                    "description": "TanStack's query.isStale(): with subscriptions, stale when any enabled subscription sees it stale; without, only when there is no data or it is invalidated.",
                    "type": "boolean"
                  },
                  "type": {
                    "default": "all",
                    "description": "active: at least one enabled subscription.",
                    "enum": [
                      "all",
                      "active",
                      "inactive"
                    ]
                  }
                },
                "type": "object"
              },
              "QueryKey": {
                "description": "A non-empty JSON array; identity is its canonical JSON (object members sorted).",
                "items": {},
                "minItems": 1,
                "type": "array"
              },
              "QueryOptions": {
                "additionalProperties": false,
                "description": "Options served by protocol 1. Unknown members are rejected with -32602 (field options.<name>, or defaults.<name> in fetcher.register).",
                "properties": {
                  "echo": {
                    "default": true,
                    "description": "Protocol 2, subscriptions only: false = a change made by this connection's own query.set is not pushed to this subscription (the query.set reply has the state).",
                    "type": "boolean"
                  },
                  "enabled": {
                    "default": true,
                    "description": "Subscriptions only: false = never fetch automatically.",
                    "type": "boolean"
                  },
                  "gcTime": {
                    "default": 300000,
                    "description": "ms an unused query stays cached; null or \"Infinity\" = forever. The query keeps the largest value it was given.",
                    "oneOf": [
                      {
                        "minimum": 0,
                        "type": "integer"
                      },
                      {
                        "type": "null"
                      },
                      {
                        "const": "Infinity"
                      }
                    ]
                  },
                  "infinite": {
                    "additionalProperties": false,
                    "description": "Makes the query infinite (paged): its data is {pages, pageParams}, fetch requests carry pageParam and direction, and its state has the six paging flags. A key is infinite or ordinary for the life of its cache entry; the other use is -32602 (field options.infinite). See protocol/methods/infinite.md.",
                    "properties": {
                      "initialPageParam": {
                        "description": "The param of the first page (any JSON, null included)."
                      },
                      "maxPages": {
                        "description": "Keep at most this many pages: a next page drops pages from the front, a previous page from the back. Default: no limit.",
                        "minimum": 1,
                        "type": "integer"
                      }
                    },
                    "required": [
                      "initialPageParam"
                    ],
                    "type": "object"
                  },
                  "initialData": {
                    "description": "Data to seed a query that has none (dataUpdateCount stays 0)."
                  },
                  "initialDataUpdatedAt": {
                    "description": "dataUpdatedAt for initialData; default now.",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "meta": {
                    "description": "Any JSON, sent to the fetcher in fetch.params.meta."
                  },
                  "notifyOnChangeProps": {
                    "default": "all",
                    "description": "Subscriptions only: the state fields whose change causes a query.changed (the push then carries the whole state); \"all\" = any change; [] = never. [\"data\"] ignores a refetch returning equal data; [\"dataUpdatedAt\"] hears every successful refetch. Unknown names are rejected with -32602.",
                    "oneOf": [
                      {
                        "items": {
                          "type": "string"
                        },
                        "type": "array"
                      },
                      {
                        "const": "all"
                      }
                    ]
                  },
                  "placeholderData": {
                    "description": "Subscriptions only: data shown while the query is pending (isPlaceholderData true; select applies to it); never written to the cache. \"previous\" = the data of the last query this subscription showed data for before query.setOptions switched its key."
                  },
                  "refetchInterval": {
                    "default": null,
                    "description": "Subscriptions only: poll this many ms after the query's last state change, stale or not (period = interval + fetch time). 0, null or false = no polling. No polling while disabled, or while the subscribing connection is unfocused unless refetchIntervalInBackground.",
                    "oneOf": [
                      {
                        "minimum": 0,
                        "type": "integer"
                      },
                      {
                        "type": "null"
                      },
                      {
                        "const": false
                      }
                    ]
                  },
                  "refetchIntervalInBackground": {
                    "default": false,
                    "description": "Subscriptions only: keep polling while the subscribing connection is unfocused (client.setFocused {focused:false}).",
                    "type": "boolean"
                  },
                  "push": {
                    "default": "state",
                    "description": "Protocol 2, subscriptions only: what the subscription's states carry. state: the whole state (protocol 1); meta: no data, with dataVersion; patch: the subscribe/setOptions reply whole with dataVersion, then each query.changed whole, as an RFC 7396 merge patch (params.patch) from the data last sent, or without data when it did not change.",
                    "enum": [
                      "state",
                      "meta",
                      "patch"
                    ],
                    "type": "string"
                  },
                  "refetchOn": {
                    "default": [],
                    "description": "Subscriptions only: names of events.emit events that refetch the query (stale or not; enabled subscriptions only).",
                    "items": {
                      "type": "string"
                    },
                    "type": "array"
                  },
                  "refetchOnFocus": {
                    "default": true,
                    "description": "Subscriptions only: when the subscribing connection regains focus (client.setFocused true after false): true = refetch if stale for this subscription, \"always\" = even when fresh (not for staleTime \"static\"), false = never.",
                    "oneOf": [
                      {
                        "type": "boolean"
                      },
                      {
                        "const": "always"
                      }
                    ]
                  },
                  "refetchOnReconnect": {
                    "default": true,
                    "description": "Subscriptions only: the same when the daemon goes back online (network.setOnline true after false), for every connection's subscriptions.",
                    "oneOf": [
                      {
                        "type": "boolean"
                      },
                      {
                        "const": "always"
                      }
                    ]
                  },
                  "refetchOnSubscribe": {
                    "default": "ifStale",
                    "description": "Subscriptions only: fetch on subscribe when data exists (TanStack refetchOnMount).",
                    "enum": [
                      "always",
                      "ifStale",
                      "never"
                    ]
                  },
                  "retry": {
                    "description": "Retries after a failed attempt: n, false = 0, true = forever. Default 3 for subscriptions, 0 for query.fetch/ensure/prefetch.",
                    "oneOf": [
                      {
                        "minimum": 0,
                        "type": "integer"
                      },
                      {
                        "type": "boolean"
                      }
                    ]
                  },
                  "retryDelay": {
                    "description": "ms to wait before a retry. Default: after the n-th failed attempt, min(1000 * 2^(n-1), 30000).",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "select": {
                    "description": "RFC 6901 JSON Pointer projecting data for a subscription and for the answer of query.fetch/query.ensure; \"\" = whole value. A pointer that does not resolve in the data is a select error: status error, error {code:-32602, message:'Select failed', data:{select, reason}}, data the last good projection (absent if none).",
                    "type": "string"
                  },
                  "staleTime": {
                    "allOf": [
                      {
                        "$ref": "#/components/schemas/StaleTime"
                      }
                    ],
                    "description": "ms after dataUpdatedAt when data becomes stale, \"Infinity\" or \"static\". Default 0."
                  },
                  "timeout": {
                    "description": "ms per attempt (then the attempt fails with -32004 and the fetcher gets $/cancelRequest). A waiting caller (query.fetch, query.ensure, query.refetch) whose fetch is still paused for lack of a fetcher this long after the call gets -32002. Default: for attempts the daemon's --attempt-timeout-ms (60000; protocol 2), for waiting callers none.",
                    "minimum": 0,
                    "type": "integer"
                  }
                },
                "type": "object"
              },
              "QueryState": {
                "description": "A query's state as one observer sees it. Members are written sorted by name.",
                "properties": {
                  "data": {
                    "description": "The data (after select for a subscription, or its placeholder); absent while there is none. null is data. With a select error: the last good projection, or absent."
                  },
                  "dataUpdateCount": {
                    "description": "Successful fetches and query.set writes so far (initialData does not count).",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "dataUpdatedAt": {
                    "description": "ms since the epoch of the last successful write; 0 when none.",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "dataVersion": {
                    "description": "Protocol 2, only in states sent to a subscription in the meta or patch push mode: the version at which the data last changed (equal dataVersions mean equal data); absent while the query has no data.",
                    "minimum": 1,
                    "type": "integer"
                  },
                  "epoch": {
                    "description": "The cache generation: the same for every state of one daemon's life (and across a restart with --persist); a new value means the cache started over, so versions and data derived from earlier states no longer apply.",
                    "type": "string"
                  },
                  "error": {
                    "description": "The last final error, or null. A fetcher error is wrapped in -32001. For a subscription whose select pointer does not resolve: the select error {code:-32602, message:'Select failed'}.",
                    "oneOf": [
                      {
                        "type": "null"
                      },
                      {
                        "$ref": "#/components/schemas/ErrorObject"
                      }
                    ]
                  },
                  "errorUpdateCount": {
                    "description": "Final errors so far.",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "errorUpdatedAt": {
                    "description": "ms since the epoch of the last final error; 0 when none.",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "failureCount": {
                    "description": "Failed attempts of the current (or last) fetch; 0 after a success or a new fetch start.",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "failureReason": {
                    "description": "The error of the last failed attempt, or null.",
                    "oneOf": [
                      {
                        "type": "null"
                      },
                      {
                        "$ref": "#/components/schemas/ErrorObject"
                      }
                    ]
                  },
                  "fetchStatus": {
                    "description": "fetching: a fetch attempt or retry delay is running; paused: waiting for a fetcher; idle.",
                    "enum": [
                      "idle",
                      "fetching",
                      "paused"
                    ]
                  },
                  "hasNextPage": {
                    "description": "Infinite queries only: there is data with at least one page and the last page was answered with a nextPageParam.",
                    "type": "boolean"
                  },
                  "hasPreviousPage": {
                    "description": "Infinite queries only: there is data with at least one page and the first page was answered with a previousPageParam.",
                    "type": "boolean"
                  },
                  "isError": {
                    "description": "status == error.",
                    "type": "boolean"
                  },
                  "isFetchNextPageError": {
                    "description": "Infinite queries only: isError and the last fetch was query.fetchNextPage (until the next fetch starts).",
                    "type": "boolean"
                  },
                  "isFetchPreviousPageError": {
                    "description": "Infinite queries only: isError and the last fetch was query.fetchPreviousPage (until the next fetch starts).",
                    "type": "boolean"
                  },
                  "isFetched": {
                    "description": "dataUpdateCount + errorUpdateCount > 0.",
                    "type": "boolean"
                  },
                  "isFetching": {
                    "description": "fetchStatus == fetching.",
                    "type": "boolean"
                  },
                  "isFetchingNextPage": {
                    "description": "Infinite queries only: isFetching and the running fetch is query.fetchNextPage.",
                    "type": "boolean"
                  },
                  "isFetchingPreviousPage": {
                    "description": "Infinite queries only: isFetching and the running fetch is query.fetchPreviousPage.",
                    "type": "boolean"
                  },
                  "isInvalidated": {
                    "description": "Set by invalidation and by a final error; cleared by a success.",
                    "type": "boolean"
                  },
                  "isLoading": {
                    "description": "isPending && isFetching.",
                    "type": "boolean"
                  },
                  "isPaused": {
                    "description": "fetchStatus == paused.",
                    "type": "boolean"
                  },
                  "isPending": {
                    "description": "status == pending.",
                    "type": "boolean"
                  },
                  "isPlaceholderData": {
                    "description": "data is the subscription's placeholderData, not cached data.",
                    "type": "boolean"
                  },
                  "isRefetching": {
                    "description": "isFetching && !isPending (for an infinite query also && !isFetchingNextPage && !isFetchingPreviousPage).",
                    "type": "boolean"
                  },
                  "isStale": {
                    "description": "For a subscription: its own staleTime; for query.fetch/query.ensure: the caller's; otherwise (query.state, query.set, queries.list, query.refetch by key) staleTime 0.",
                    "type": "boolean"
                  },
                  "isSuccess": {
                    "description": "status == success.",
                    "type": "boolean"
                  },
                  "key": {
                    "allOf": [
                      {
                        "$ref": "#/components/schemas/QueryKey"
                      }
                    ],
                    "description": "The query key."
                  },
                  "status": {
                    "description": "pending: no data and no finished attempt; success; error.",
                    "enum": [
                      "pending",
                      "success",
                      "error"
                    ]
                  },
                  "version": {
                    "description": "Grows with every change of the query's state; order states by it. Monotonic per key for the daemon's life: an entry made again after queries.remove or garbage collection starts above every version its key had.",
                    "minimum": 1,
                    "type": "integer"
                  }
                },
                "required": [
                  "key",
                  "status",
                  "fetchStatus",
                  "dataUpdatedAt",
                  "dataUpdateCount",
                  "epoch",
                  "error",
                  "errorUpdatedAt",
                  "errorUpdateCount",
                  "failureCount",
                  "failureReason",
                  "isInvalidated",
                  "isStale",
                  "isPlaceholderData",
                  "isLoading",
                  "isFetching",
                  "isRefetching",
                  "isSuccess",
                  "isError",
                  "isPending",
                  "isPaused",
                  "isFetched",
                  "version"
                ],
                "type": "object"
              },
              "QueryStateWithObservers": {
                "allOf": [
                  {
                    "$ref": "#/components/schemas/QueryState"
                  },
                  {
                    "properties": {
                      "observers": {
                        "description": "Subscriptions on the query.",
                        "minimum": 0,
                        "type": "integer"
                      }
                    },
                    "required": [
                      "observers"
                    ],
                    "type": "object"
                  }
                ]
              },
              "RequestId": {
                "description": "A JSON-RPC request id: a string or a number (protocol 2 refuses null).",
                "oneOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "number"
                  }
                ]
              },
              "ServerStats": {
                "properties": {
                  "connections": {
                    "description": "Open connections.",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "fetchers": {
                    "description": "Registered fetchers.",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "inFlightFetches": {
                    "description": "fetch requests awaiting a fetcher's answer.",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "memory": {
                    "description": "rssBytes: the daemon's resident set size (0 when unknown).",
                    "properties": {
                      "rssBytes": {
                        "minimum": 0,
                        "type": "integer"
                      }
                    },
                    "required": [
                      "rssBytes"
                    ],
                    "type": "object"
                  },
                  "pendingRequests": {
                    "description": "Client requests waiting for a fetch to settle (query.fetch, query.ensure, query.refetch).",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "queries": {
                    "description": "Queries in the cache.",
                    "minimum": 0,
                    "type": "integer"
                  },
                  "subscriptions": {
                    "description": "Subscriptions over all connections.",
                    "minimum": 0,
                    "type": "integer"
                  }
                },
                "required": [
                  "connections",
                  "queries",
                  "subscriptions",
                  "fetchers",
                  "inFlightFetches",
                  "pendingRequests",
                  "memory"
                ],
                "type": "object"
              },
              "StaleTime": {
                "default": 0,
                "description": "ms; \"Infinity\" (never stale by time, but invalidation still makes it stale); or \"static\" (never stale, not even after invalidation).",
                "oneOf": [
                  {
                    "minimum": 0,
                    "type": "integer"
                  },
                  {
                    "const": "Infinity"
                  },
                  {
                    "const": "static"
                  }
                ]
              },
              "SubscriptionId": {
                "description": "Never reused in the daemon's life.",
                "minimum": 1,
                "type": "integer"
              }
            }
          },
          "info": {
            "description": "TanStack Query v5's cache as a daemon: newline-delimited JSON-RPC 2.0 over a Unix socket. info.version is the protocol version (this daemon speaks 1 and 2; server.hello negotiates). Params are by name (only the test.* fixtures also take arrays); members a method does not know, in params, options, defaults and filter, are rejected with -32602, except _meta, which every params object may carry (an object, ignored; anything else is -32602 with field _meta). Request ids are strings or numbers: a null id, or the id of a request of the same connection that is still pending, is -32600. Methods that may wait (query.fetch, query.ensure, query.refetch, query.fetchNextPage, query.fetchPreviousPage, mutation.run) are refused with -32600 inside a batch. Errors -32002, -32003 and -32006 carry data.retryable (and data.retryAfterMs when known). Readers must ignore members, notifications and state fields they do not know; names are never reused. The full specification is the protocol/ folder.",
            "title": "queryd",
            "version": "2"
          },
          "methods": [
            {
              "description": "Optional: no handshake is required, but clients send it on every connect. Negotiates the protocol: the result's protocol is the highest in both the daemon's range (1 to 2) and the client's protocol (2 when absent). No common version is -32602 with data {field:'protocol', reason, supported:{min,max}, requested}; a required capability the daemon lacks is -32602 with data {field:'require', reason, missing:[names]}. The client value is only logged; capabilities.requests (the server-to-client requests the client serves) is kept for the connection. capabilities lists every method this daemon serves, $/cancelRequest and fetch.progress, sorted, then the feature names (feature:manual-clock when --manual-clock is on), then the protocol-2 names.",
              "errors": [
                {
                  "code": -32602,
                  "data": {
                    "description": "{field:'protocol', reason, supported, requested} when there is no common protocol or protocol is malformed (supported is always present); {field:'require', reason, missing} for missing capabilities; {field, reason} for other bad members."
                  },
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "hello",
                  "params": [
                    {
                      "name": "client",
                      "value": {
                        "name": "queryd-py",
                        "version": "0.1.0"
                      }
                    },
                    {
                      "name": "protocol",
                      "value": {
                        "max": 2,
                        "min": 1
                      }
                    },
                    {
                      "name": "capabilities",
                      "value": {
                        "requests": [
                          "fetch",
                          "mutate"
                        ]
                      }
                    }
                  ],
                  "result": {
                    "name": "helloResult",
                    "value": {
                      "capabilities": [
                        "$/cancelRequest",
                        "client.setFocused",
                        "clock.advance",
                        "clock.now",
                        "events.emit",
                        "fetch.progress",
                        "fetcher.register",
                        "fetcher.unregister",
                        "mutation.run",
                        "mutation.subscribe",
                        "mutation.unsubscribe",
                        "mutations.list",
                        "mutator.register",
                        "mutator.unregister",
                        "network.setOnline",
                        "queries.cancel",
                        "queries.invalidate",
                        "queries.list",
                        "queries.refetch",
                        "queries.remove",
                        "queries.reset",
                        "query.cancel",
                        "query.ensure",
                        "query.fetch",
                        "query.fetchNextPage",
                        "query.fetchPreviousPage",
                        "query.get",
                        "query.prefetch",
                        "query.refetch",
                        "query.set",
                        "query.setOptions",
                        "query.state",
                        "query.subscribe",
                        "query.unsubscribe",
                        "rpc.discover",
                        "server.hello",
                        "server.ping",
                        "server.stats",
                        "feature:manual-clock",
                        "option:push",
                        "option:echo",
                        "field:epoch",
                        "field:dataVersion",
                        "notification:$/closing",
                        "param:cursor",
                        "param:_meta"
                      ],
                      "epoch": "5f0c6e2a9b1d4e73",
                      "node": "buildhost:4121",
                      "protocol": 2,
                      "server": "queryd",
                      "version": "0.1.0"
                    }
                  }
                }
              ],
              "name": "server.hello",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "Anything describing the client, usually {name, version}; only logged.",
                  "name": "client",
                  "schema": {}
                },
                {
                  "description": "The protocol versions the client speaks: one integer, or {min, max} (either bound optional). Absent: any.",
                  "name": "protocol",
                  "schema": {
                    "oneOf": [
                      {
                        "minimum": 1,
                        "type": "integer"
                      },
                      {
                        "additionalProperties": false,
                        "properties": {
                          "max": {
                            "minimum": 1,
                            "type": "integer"
                          },
                          "min": {
                            "minimum": 1,
                            "type": "integer"
                          }
                        },
                        "type": "object"
                      }
                    ]
                  }
                },
                {
                  "description": "Capability names the client needs; any the daemon does not offer refuses the hello (-32602, data.missing).",
                  "name": "require",
                  "schema": {
                    "items": {
                      "type": "string"
                    },
                    "type": "array"
                  }
                },
                {
                  "description": "The client's own capabilities: requests lists the server-to-client requests it serves (e.g. fetch, mutate). Other members are the client's and are ignored.",
                  "name": "capabilities",
                  "schema": {
                    "properties": {
                      "requests": {
                        "items": {
                          "type": "string"
                        },
                        "type": "array"
                      }
                    },
                    "type": "object"
                  }
                }
              ],
              "result": {
                "description": "The chosen protocol, the daemon's identity and its capabilities.",
                "name": "hello",
                "schema": {
                  "$ref": "#/components/schemas/Hello"
                }
              },
              "summary": "Negotiate the protocol; learn the daemon's version, node, epoch and capabilities."
            },
            {
              "description": "Answers {} at once; useful as a barrier after notifications.",
              "errors": [],
              "examples": [
                {
                  "name": "ping",
                  "params": [],
                  "result": {
                    "name": "pingResult",
                    "value": {}
                  }
                }
              ],
              "name": "server.ping",
              "paramStructure": "by-name",
              "params": [],
              "result": {
                "description": "An empty object.",
                "name": "empty",
                "schema": {
                  "additionalProperties": false,
                  "type": "object"
                }
              },
              "summary": "Liveness check."
            },
            {
              "description": "Integers: open connections, cached queries, subscriptions, registered fetchers, fetch requests awaiting a fetcher's answer, client requests waiting for a fetch to settle, and the process's resident memory.",
              "errors": [],
              "examples": [
                {
                  "name": "stats",
                  "params": [],
                  "result": {
                    "name": "statsResult",
                    "value": {
                      "connections": 2,
                      "fetchers": 1,
                      "inFlightFetches": 0,
                      "memory": {
                        "rssBytes": 9437184
                      },
                      "pendingRequests": 0,
                      "queries": 3,
                      "subscriptions": 1
                    }
                  }
                }
              ],
              "name": "server.stats",
              "paramStructure": "by-name",
              "params": [],
              "result": {
                "description": "The counters.",
                "name": "stats",
                "schema": {
                  "$ref": "#/components/schemas/ServerStats"
                }
              },
              "summary": "Daemon-wide counters."
            },
            {
              "description": "Returns the OpenRPC 1.3.0 document of the protocol, listing exactly the methods served by this daemon (clock.* only with --manual-clock, test.* only with --test-methods; $/cancelRequest and fetch.progress always). queryd openrpc prints the full document.",
              "errors": [],
              "examples": [
                {
                  "description": "Abbreviated: the real result is this whole document.",
                  "name": "discover",
                  "params": [],
                  "result": {
                    "name": "discoverResult",
                    "value": {
                      "info": {
                        "title": "queryd",
                        "version": "2"
                      },
                      "methods": [],
                      "openrpc": "1.3.0"
                    }
                  }
                }
              ],
              "name": "rpc.discover",
              "paramStructure": "by-name",
              "params": [],
              "result": {
                "description": "The document.",
                "name": "openrpc",
                "schema": {
                  "required": [
                    "openrpc",
                    "info",
                    "methods"
                  ],
                  "type": "object"
                }
              },
              "summary": "This OpenRPC document."
            },
            {
              "description": "Send without an id (a notification). The pending request of this connection with that id (a query.fetch, query.ensure or query.refetch waiting for a fetch) is answered at once with -32800, data {id}; the fetch goes on only while someone else still wants it. Unknown or already answered ids are ignored. The server sends the same notification to fetchers (see x-server-to-client).",
              "errors": [],
              "examples": [
                {
                  "description": "No reply; request 7 is answered with {code:-32800, message:'Request cancelled', data:{id:7}}.",
                  "name": "cancel",
                  "params": [
                    {
                      "name": "id",
                      "value": 7
                    }
                  ],
                  "result": {
                    "name": "cancelResult",
                    "value": null
                  }
                }
              ],
              "name": "$/cancelRequest",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The id of the request to cancel.",
                  "name": "id",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/RequestId"
                  }
                }
              ],
              "result": {
                "description": "Nothing: this is a notification and gets no reply.",
                "name": "noReply",
                "schema": {
                  "type": "null"
                }
              },
              "summary": "Notification: stop waiting for one of this connection's own requests."
            },
            {
              "description": "Send without an id (a notification), from a fetcher while it answers the server's fetch request id: data (the whole data so far) is published to the query's subscribers at once as its data (status success, dataUpdatedAt now, dataUpdateCount + 1) while fetchStatus stays fetching; the answer to the request ends the fetch. A cancel with revert keeps the last chunk. Ignored for an id this connection was not sent, an attempt already answered, cancelled or replaced, an infinite query, or missing members. Sent with an id it is -32601.",
              "errors": [],
              "examples": [
                {
                  "description": "No reply; the subscribers of the query of fetch request 3 get a query.changed with data [0] and fetchStatus fetching.",
                  "name": "progress",
                  "params": [
                    {
                      "name": "id",
                      "value": 3
                    },
                    {
                      "name": "data",
                      "value": [
                        0
                      ]
                    }
                  ],
                  "result": {
                    "name": "progressResult",
                    "value": null
                  }
                }
              ],
              "name": "fetch.progress",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The id of the server's fetch request this chunk belongs to.",
                  "name": "id",
                  "required": true,
                  "schema": {
                    "minimum": 1,
                    "type": "integer"
                  }
                },
                {
                  "description": "The data so far (replaces the query's data).",
                  "name": "data",
                  "required": true,
                  "schema": {}
                }
              ],
              "result": {
                "description": "Nothing: this is a notification and gets no reply.",
                "name": "noReply",
                "schema": {
                  "type": "null"
                }
              },
              "summary": "Notification from a fetcher: partial data of a fetch it is answering (streaming)."
            },
            {
              "description": "From now on this connection receives fetch requests for queries whose key matches key (prefix and partial object match, or identity with exact). Longest key wins; among equals the least busy fetcher, then the oldest. defaults act as query options for matching keys: the defaults of all matching fetchers are layered in registration order (later registrations override earlier ones), and the caller's options override them. cancellable: abandoned fetches are cancelled ($/cancelRequest, state reverted) instead of run to completion.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "register",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "todos"
                      ]
                    },
                    {
                      "name": "cancellable",
                      "value": true
                    },
                    {
                      "name": "defaults",
                      "value": {
                        "staleTime": 60000
                      }
                    }
                  ],
                  "result": {
                    "name": "registerResult",
                    "value": {
                      "fetcher": 1
                    }
                  }
                }
              ],
              "name": "fetcher.register",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "Key prefix to serve; [] serves every key.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/KeyPrefix"
                  }
                },
                {
                  "description": "Serve only the key equal to key (key must be non-empty).",
                  "name": "exact",
                  "schema": {
                    "default": false,
                    "type": "boolean"
                  }
                },
                {
                  "description": "Honour cancellation of abandoned fetches.",
                  "name": "cancellable",
                  "schema": {
                    "default": false,
                    "type": "boolean"
                  }
                },
                {
                  "description": "Default query options for matching keys.",
                  "name": "defaults",
                  "schema": {
                    "$ref": "#/components/schemas/QueryOptions"
                  }
                }
              ],
              "result": {
                "description": "The new fetcher's id.",
                "name": "registration",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "fetcher": {
                      "$ref": "#/components/schemas/FetcherId"
                    }
                  },
                  "required": [
                    "fetcher"
                  ],
                  "type": "object"
                }
              },
              "summary": "Serve fetch requests for keys under a prefix."
            },
            {
              "description": "New fetches no longer go to this fetcher; fetches already sent to it still accept its answers. Only the connection that registered it may unregister it. Closing the connection unregisters all its fetchers.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                },
                {
                  "code": -32005,
                  "message": "Unknown fetcher"
                }
              ],
              "examples": [
                {
                  "name": "unregister",
                  "params": [
                    {
                      "name": "fetcher",
                      "value": 1
                    }
                  ],
                  "result": {
                    "name": "unregisterResult",
                    "value": {}
                  }
                }
              ],
              "name": "fetcher.unregister",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The id from fetcher.register.",
                  "name": "fetcher",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/FetcherId"
                  }
                }
              ],
              "result": {
                "description": "An empty object.",
                "name": "empty",
                "schema": {
                  "additionalProperties": false,
                  "type": "object"
                }
              },
              "summary": "Stop serving a prefix."
            },
            {
              "description": "Returns the cached state when its data is fresh for options.staleTime (default 0, so by default it always fetches, joining a fetch in flight); otherwise replies once the fetch settles. retry defaults to 0. A failure after retries is error -32001 whose data is the fetcher's last error object. select projects the returned data; enabled, refetchOnSubscribe and placeholderData are ignored. -32003 when the fetch is cancelled with nothing to revert to (reason cancelled), reset (reset) or removed (removed).",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                },
                {
                  "code": -32001,
                  "message": "Fetch failed"
                },
                {
                  "code": -32002,
                  "message": "No fetcher"
                },
                {
                  "code": -32003,
                  "message": "Cancelled by the server"
                },
                {
                  "code": -32800,
                  "message": "Request cancelled"
                }
              ],
              "examples": [
                {
                  "name": "fetch",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "todos"
                      ]
                    }
                  ],
                  "result": {
                    "name": "fetchResult",
                    "value": {
                      "data": [
                        "buy milk"
                      ],
                      "dataUpdateCount": 1,
                      "dataUpdatedAt": 1700000000000,
                      "epoch": "5f0c6e2a9b1d4e73",
                      "error": null,
                      "errorUpdateCount": 0,
                      "errorUpdatedAt": 0,
                      "failureCount": 0,
                      "failureReason": null,
                      "fetchStatus": "idle",
                      "isError": false,
                      "isFetched": true,
                      "isFetching": false,
                      "isInvalidated": false,
                      "isLoading": false,
                      "isPaused": false,
                      "isPending": false,
                      "isPlaceholderData": false,
                      "isRefetching": false,
                      "isStale": true,
                      "isSuccess": true,
                      "key": [
                        "todos"
                      ],
                      "status": "success",
                      "version": 3
                    }
                  }
                }
              ],
              "name": "query.fetch",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The query key (a non-empty array); identity is its canonical JSON.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "Query options; absent members take their defaults.",
                  "name": "options",
                  "schema": {
                    "$ref": "#/components/schemas/QueryOptions"
                  }
                }
              ],
              "result": {
                "description": "The settled state.",
                "name": "state",
                "schema": {
                  "$ref": "#/components/schemas/QueryState"
                }
              },
              "summary": "Fresh data: cached when fresh, else one deduplicated fetch; reply once settled."
            },
            {
              "description": "Like query.fetch, but any cached data is returned without a fetch, however old or invalidated; it fetches only when there is none (initialData counts as data).",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                },
                {
                  "code": -32001,
                  "message": "Fetch failed"
                },
                {
                  "code": -32002,
                  "message": "No fetcher"
                },
                {
                  "code": -32003,
                  "message": "Cancelled by the server"
                },
                {
                  "code": -32800,
                  "message": "Request cancelled"
                }
              ],
              "examples": [
                {
                  "name": "ensure",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "todos"
                      ]
                    }
                  ],
                  "result": {
                    "name": "ensureResult",
                    "value": {
                      "data": [
                        "buy milk"
                      ],
                      "dataUpdateCount": 1,
                      "dataUpdatedAt": 1700000000000,
                      "epoch": "5f0c6e2a9b1d4e73",
                      "error": null,
                      "errorUpdateCount": 0,
                      "errorUpdatedAt": 0,
                      "failureCount": 0,
                      "failureReason": null,
                      "fetchStatus": "idle",
                      "isError": false,
                      "isFetched": true,
                      "isFetching": false,
                      "isInvalidated": false,
                      "isLoading": false,
                      "isPaused": false,
                      "isPending": false,
                      "isPlaceholderData": false,
                      "isRefetching": false,
                      "isStale": true,
                      "isSuccess": true,
                      "key": [
                        "todos"
                      ],
                      "status": "success",
                      "version": 3
                    }
                  }
                }
              ],
              "name": "query.ensure",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The query key (a non-empty array); identity is its canonical JSON.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "Query options; absent members take their defaults.",
                  "name": "options",
                  "schema": {
                    "$ref": "#/components/schemas/QueryOptions"
                  }
                }
              ],
              "result": {
                "description": "The state.",
                "name": "state",
                "schema": {
                  "$ref": "#/components/schemas/QueryState"
                }
              },
              "summary": "Cached data of any age; fetch only when there is none."
            },
            {
              "description": "Fetches in the background when the data is stale for options.staleTime (default 0). Its outcome is only stored in the cache (subscribers are notified); errors are not reported to the caller. retry defaults to 0.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "prefetch",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "todos",
                        {
                          "page": 2
                        }
                      ]
                    },
                    {
                      "name": "options",
                      "value": {
                        "staleTime": 30000
                      }
                    }
                  ],
                  "result": {
                    "name": "prefetchResult",
                    "value": {}
                  }
                }
              ],
              "name": "query.prefetch",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The query key (a non-empty array); identity is its canonical JSON.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "Query options; absent members take their defaults.",
                  "name": "options",
                  "schema": {
                    "$ref": "#/components/schemas/QueryOptions"
                  }
                }
              ],
              "result": {
                "description": "An empty object.",
                "name": "empty",
                "schema": {
                  "additionalProperties": false,
                  "type": "object"
                }
              },
              "summary": "Start a background fetch if stale; reply {} at once."
            },
            {
              "description": "Returns {data, dataUpdatedAt} for the exact key, or null when the query is absent or has no data.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "get",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "todos"
                      ]
                    }
                  ],
                  "result": {
                    "name": "getResult",
                    "value": {
                      "data": [
                        "buy milk"
                      ],
                      "dataUpdatedAt": 1700000000000
                    }
                  }
                }
              ],
              "name": "query.get",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The query key (a non-empty array); identity is its canonical JSON.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                }
              ],
              "result": {
                "description": "The data or null.",
                "name": "data",
                "schema": {
                  "oneOf": [
                    {
                      "type": "null"
                    },
                    {
                      "$ref": "#/components/schemas/CachedData"
                    }
                  ]
                }
              },
              "summary": "The cached data, never fetching (the fast path)."
            },
            {
              "description": "Never fetches. isStale is the query's own staleness (staleTime 0: no data, invalidated, or any data).",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "state",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "todos"
                      ]
                    }
                  ],
                  "result": {
                    "name": "stateResult",
                    "value": {
                      "data": [
                        "buy milk"
                      ],
                      "dataUpdateCount": 1,
                      "dataUpdatedAt": 1700000000000,
                      "epoch": "5f0c6e2a9b1d4e73",
                      "error": null,
                      "errorUpdateCount": 0,
                      "errorUpdatedAt": 0,
                      "failureCount": 0,
                      "failureReason": null,
                      "fetchStatus": "idle",
                      "isError": false,
                      "isFetched": true,
                      "isFetching": false,
                      "isInvalidated": false,
                      "isLoading": false,
                      "isPaused": false,
                      "isPending": false,
                      "isPlaceholderData": false,
                      "isRefetching": false,
                      "isStale": true,
                      "isSuccess": true,
                      "key": [
                        "todos"
                      ],
                      "status": "success",
                      "version": 3
                    }
                  }
                }
              ],
              "name": "query.state",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The query key (a non-empty array); identity is its canonical JSON.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                }
              ],
              "result": {
                "description": "The state or null.",
                "name": "state",
                "schema": {
                  "oneOf": [
                    {
                      "type": "null"
                    },
                    {
                      "$ref": "#/components/schemas/QueryState"
                    }
                  ]
                }
              },
              "summary": "The full state of one query, or null."
            },
            {
              "description": "Exactly one of data and mergePatch (RFC 7396, applied to the cached data; no data patches {}); both or neither is -32602 with field data. Creates the query when absent. status becomes success, error null, isInvalidated false, dataUpdateCount +1, dataUpdatedAt = updatedAt or now; a fetch in flight keeps running. Subscribers are notified.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "set",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "user",
                        7
                      ]
                    },
                    {
                      "name": "data",
                      "value": {
                        "id": 7,
                        "name": "Ada"
                      }
                    }
                  ],
                  "result": {
                    "name": "setResult",
                    "value": {
                      "data": {
                        "id": 7,
                        "name": "Ada"
                      },
                      "dataUpdateCount": 1,
                      "dataUpdatedAt": 1700000000000,
                      "epoch": "5f0c6e2a9b1d4e73",
                      "error": null,
                      "errorUpdateCount": 0,
                      "errorUpdatedAt": 0,
                      "failureCount": 0,
                      "failureReason": null,
                      "fetchStatus": "idle",
                      "isError": false,
                      "isFetched": true,
                      "isFetching": false,
                      "isInvalidated": false,
                      "isLoading": false,
                      "isPaused": false,
                      "isPending": false,
                      "isPlaceholderData": false,
                      "isRefetching": false,
                      "isStale": true,
                      "isSuccess": true,
                      "key": [
                        "user",
                        7
                      ],
                      "status": "success",
                      "version": 2
                    }
                  }
                },
                {
                  "name": "patch",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "user",
                        7
                      ]
                    },
                    {
                      "name": "mergePatch",
                      "value": {
                        "name": "Ada Lovelace"
                      }
                    }
                  ],
                  "result": {
                    "name": "patchResult",
                    "value": {
                      "data": {
                        "id": 7,
                        "name": "Ada Lovelace"
                      },
                      "dataUpdateCount": 2,
                      "dataUpdatedAt": 1700000000000,
                      "epoch": "5f0c6e2a9b1d4e73",
                      "error": null,
                      "errorUpdateCount": 0,
                      "errorUpdatedAt": 0,
                      "failureCount": 0,
                      "failureReason": null,
                      "fetchStatus": "idle",
                      "isError": false,
                      "isFetched": true,
                      "isFetching": false,
                      "isInvalidated": false,
                      "isLoading": false,
                      "isPaused": false,
                      "isPending": false,
                      "isPlaceholderData": false,
                      "isRefetching": false,
                      "isStale": true,
                      "isSuccess": true,
                      "key": [
                        "user",
                        7
                      ],
                      "status": "success",
                      "version": 3
                    }
                  }
                }
              ],
              "name": "query.set",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The query key (a non-empty array); identity is its canonical JSON.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "The new data (null is data).",
                  "name": "data",
                  "schema": {}
                },
                {
                  "description": "An RFC 7396 merge patch for the cached data.",
                  "name": "mergePatch",
                  "schema": {}
                },
                {
                  "description": "dataUpdatedAt to record; default now.",
                  "name": "updatedAt",
                  "schema": {
                    "minimum": 0,
                    "type": "integer"
                  }
                }
              ],
              "result": {
                "description": "The new state.",
                "name": "state",
                "schema": {
                  "$ref": "#/components/schemas/QueryState"
                }
              },
              "summary": "Write data into the cache, as setQueryData."
            },
            {
              "description": "Creates the query if needed and attaches an observer (like useQuery's mount): fetches when enabled and the data is stale (see refetchOnSubscribe). The reply carries the subscription id and the state as the observer sees it now (already 'fetching' when this subscribe starts a fetch) and is written before the subscription's first query.changed.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "subscribe",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "todos"
                      ]
                    }
                  ],
                  "result": {
                    "name": "subscribeResult",
                    "value": {
                      "state": {
                        "dataUpdateCount": 0,
                        "dataUpdatedAt": 0,
                        "epoch": "5f0c6e2a9b1d4e73",
                        "error": null,
                        "errorUpdateCount": 0,
                        "errorUpdatedAt": 0,
                        "failureCount": 0,
                        "failureReason": null,
                        "fetchStatus": "fetching",
                        "isError": false,
                        "isFetched": false,
                        "isFetching": true,
                        "isInvalidated": false,
                        "isLoading": true,
                        "isPaused": false,
                        "isPending": true,
                        "isPlaceholderData": false,
                        "isRefetching": false,
                        "isStale": true,
                        "isSuccess": false,
                        "key": [
                          "todos"
                        ],
                        "status": "pending",
                        "version": 2
                      },
                      "subscription": 1
                    }
                  }
                }
              ],
              "name": "query.subscribe",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The query key (a non-empty array); identity is its canonical JSON.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "Query options; absent members take their defaults.",
                  "name": "options",
                  "schema": {
                    "$ref": "#/components/schemas/QueryOptions"
                  }
                }
              ],
              "result": {
                "description": "The subscription id and its current state.",
                "name": "subscribed",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "state": {
                      "$ref": "#/components/schemas/QueryState"
                    },
                    "subscription": {
                      "$ref": "#/components/schemas/SubscriptionId"
                    }
                  },
                  "required": [
                    "subscription",
                    "state"
                  ],
                  "type": "object"
                }
              },
              "summary": "Observe a query; receive query.changed notifications."
            },
            {
              "description": "options, when given, replace the subscription's options (absent members take their defaults); without options the current ones are kept. A new key moves the subscription to that query (the old one may then be garbage-collected). Fetches when enabled, the key changed or enabled went from false to true, and the data is stale. A query.changed of this subscription not yet written is discarded.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                },
                {
                  "code": -32005,
                  "message": "Unknown subscription"
                }
              ],
              "examples": [
                {
                  "name": "setOptions",
                  "params": [
                    {
                      "name": "subscription",
                      "value": 1
                    },
                    {
                      "name": "key",
                      "value": [
                        "todos",
                        {
                          "page": 2
                        }
                      ]
                    }
                  ],
                  "result": {
                    "name": "setOptionsResult",
                    "value": {
                      "dataUpdateCount": 0,
                      "dataUpdatedAt": 0,
                      "epoch": "5f0c6e2a9b1d4e73",
                      "error": null,
                      "errorUpdateCount": 0,
                      "errorUpdatedAt": 0,
                      "failureCount": 0,
                      "failureReason": null,
                      "fetchStatus": "fetching",
                      "isError": false,
                      "isFetched": false,
                      "isFetching": true,
                      "isInvalidated": false,
                      "isLoading": true,
                      "isPaused": false,
                      "isPending": true,
                      "isPlaceholderData": false,
                      "isRefetching": false,
                      "isStale": true,
                      "isSuccess": false,
                      "key": [
                        "todos",
                        {
                          "page": 2
                        }
                      ],
                      "status": "pending",
                      "version": 2
                    }
                  }
                }
              ],
              "name": "query.setOptions",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "A subscription id returned by query.subscribe on this connection.",
                  "name": "subscription",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/SubscriptionId"
                  }
                },
                {
                  "description": "The new key; absent keeps the current one.",
                  "name": "key",
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "The new options; absent keeps the current ones.",
                  "name": "options",
                  "schema": {
                    "$ref": "#/components/schemas/QueryOptions"
                  }
                }
              ],
              "result": {
                "description": "The subscription's state after the change.",
                "name": "state",
                "schema": {
                  "$ref": "#/components/schemas/QueryState"
                }
              },
              "summary": "Change a subscription's key and/or options, like a re-rendered observer."
            },
            {
              "description": "No more query.changed for it. When the query has no subscriptions left its gc timer starts, and a fetch nobody else wants is cancelled if its fetcher is cancellable (otherwise it completes without retries).",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                },
                {
                  "code": -32005,
                  "message": "Unknown subscription"
                }
              ],
              "examples": [
                {
                  "name": "unsubscribe",
                  "params": [
                    {
                      "name": "subscription",
                      "value": 1
                    }
                  ],
                  "result": {
                    "name": "unsubscribeResult",
                    "value": {}
                  }
                }
              ],
              "name": "query.unsubscribe",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "A subscription id returned by query.subscribe on this connection.",
                  "name": "subscription",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/SubscriptionId"
                  }
                }
              ],
              "result": {
                "description": "An empty object.",
                "name": "empty",
                "schema": {
                  "additionalProperties": false,
                  "type": "object"
                }
              },
              "summary": "Detach a subscription."
            },
            {
              "description": "Give exactly one of subscription and key (else -32602, field subscription). Fetches even when fresh, static or disabled. cancelRefetch (default true): when the query has data and a fetch is in flight, that fetch is cancelled and a new one started; otherwise the call joins it. A failed, cancelled, reset or removed fetch is not an RPC error: the reply is the state (status error for a failure). By subscription the reply is that subscription's view; by key the query-level state (isStale for staleTime 0), or null when the key is not cached. -32003 only at shutdown.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                },
                {
                  "code": -32005,
                  "message": "Unknown subscription"
                },
                {
                  "code": -32002,
                  "message": "No fetcher"
                },
                {
                  "code": -32003,
                  "message": "Cancelled by the server"
                },
                {
                  "code": -32800,
                  "message": "Request cancelled"
                }
              ],
              "examples": [
                {
                  "name": "refetch",
                  "params": [
                    {
                      "name": "subscription",
                      "value": 1
                    }
                  ],
                  "result": {
                    "name": "refetchResult",
                    "value": {
                      "data": [
                        "buy milk",
                        "walk dog"
                      ],
                      "dataUpdateCount": 2,
                      "dataUpdatedAt": 1700000005000,
                      "epoch": "5f0c6e2a9b1d4e73",
                      "error": null,
                      "errorUpdateCount": 0,
                      "errorUpdatedAt": 0,
                      "failureCount": 0,
                      "failureReason": null,
                      "fetchStatus": "idle",
                      "isError": false,
                      "isFetched": true,
                      "isFetching": false,
                      "isInvalidated": false,
                      "isLoading": false,
                      "isPaused": false,
                      "isPending": false,
                      "isPlaceholderData": false,
                      "isRefetching": false,
                      "isStale": true,
                      "isSuccess": true,
                      "key": [
                        "todos"
                      ],
                      "status": "success",
                      "version": 5
                    }
                  }
                }
              ],
              "name": "query.refetch",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "A subscription of this connection.",
                  "name": "subscription",
                  "schema": {
                    "$ref": "#/components/schemas/SubscriptionId"
                  }
                },
                {
                  "description": "A query key (when no subscription is given); null result when not cached.",
                  "name": "key",
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "Replace a fetch in flight when there is data.",
                  "name": "cancelRefetch",
                  "schema": {
                    "default": true,
                    "type": "boolean"
                  }
                }
              ],
              "result": {
                "description": "The settled state, or null.",
                "name": "state",
                "schema": {
                  "oneOf": [
                    {
                      "type": "null"
                    },
                    {
                      "$ref": "#/components/schemas/QueryState"
                    }
                  ]
                }
              },
              "summary": "Fetch now, by subscription or by key; reply once settled."
            },
            {
              "description": "Cancels the fetch (including a pending retry delay) whatever the fetcher's kind; the fetcher is sent $/cancelRequest and a late answer is ignored. revert (default true) restores the state from before the fetch with fetchStatus idle; false leaves status error with error {code:-32001, message:'Fetch failed', data:{code:-32003, message:'Cancelled'}}. Waiting query.fetch/query.ensure callers get the reverted state when it has data, else -32003 {reason:'cancelled'}. No-op when idle or absent.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "cancel",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "todos"
                      ]
                    }
                  ],
                  "result": {
                    "name": "cancelResult",
                    "value": {}
                  }
                }
              ],
              "name": "query.cancel",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The query key (a non-empty array); identity is its canonical JSON.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "Restore the state from before the fetch.",
                  "name": "revert",
                  "schema": {
                    "default": true,
                    "type": "boolean"
                  }
                }
              ],
              "result": {
                "description": "An empty object.",
                "name": "empty",
                "schema": {
                  "additionalProperties": false,
                  "type": "object"
                }
              },
              "summary": "Cancel the query's fetch in flight."
            },
            {
              "description": "Fetches the page after the last one of an infinite query (appended) and replies once the fetch settles, with the state (a failure is reported in the state: status error and isFetchNextPageError, the pages unchanged; not an RPC error). With no such page (hasNextPage false) nothing is fetched and the reply is the current state at once; with no data the first page is loaded with initialPageParam. maxPages drops pages from the front. With another fetch in flight and data cached, cancelRefetch true (default) cancels it and starts the page fetch; false joins it. See protocol/methods/infinite.md.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                },
                {
                  "code": -32005,
                  "message": "Unknown subscription"
                },
                {
                  "code": -32003,
                  "message": "Cancelled by the server"
                },
                {
                  "code": -32800,
                  "message": "Request cancelled"
                }
              ],
              "examples": [
                {
                  "name": "fetchNextPage",
                  "params": [
                    {
                      "name": "subscription",
                      "value": 1
                    }
                  ],
                  "result": {
                    "name": "fetchNextPageResult",
                    "value": {
                      "data": {
                        "pageParams": [
                          1,
                          2
                        ],
                        "pages": [
                          [
                            "a",
                            "b"
                          ],
                          [
                            "c",
                            "d"
                          ]
                        ]
                      },
                      "dataUpdateCount": 2,
                      "dataUpdatedAt": 1700000000000,
                      "epoch": "5f0c6e2a9b1d4e73",
                      "error": null,
                      "errorUpdateCount": 0,
                      "errorUpdatedAt": 0,
                      "failureCount": 0,
                      "failureReason": null,
                      "fetchStatus": "idle",
                      "hasNextPage": true,
                      "hasPreviousPage": true,
                      "isError": false,
                      "isFetchNextPageError": false,
                      "isFetchPreviousPageError": false,
                      "isFetched": true,
                      "isFetching": false,
                      "isFetchingNextPage": false,
                      "isFetchingPreviousPage": false,
                      "isInvalidated": false,
                      "isLoading": false,
                      "isPaused": false,
                      "isPending": false,
                      "isPlaceholderData": false,
                      "isRefetching": false,
                      "isStale": true,
                      "isSuccess": true,
                      "key": [
                        "feed"
                      ],
                      "status": "success",
                      "version": 5
                    }
                  }
                }
              ],
              "name": "query.fetchNextPage",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "A subscription of this connection (its options and view are used).",
                  "name": "subscription",
                  "schema": {
                    "$ref": "#/components/schemas/SubscriptionId"
                  }
                },
                {
                  "description": "A query key (when no subscription is given): the query's remembered options, query-level state; null result when not cached.",
                  "name": "key",
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "Replace a fetch in flight when there is data; false joins it.",
                  "name": "cancelRefetch",
                  "schema": {
                    "default": true,
                    "type": "boolean"
                  }
                }
              ],
              "result": {
                "description": "The settled state, or null.",
                "name": "state",
                "schema": {
                  "oneOf": [
                    {
                      "type": "null"
                    },
                    {
                      "$ref": "#/components/schemas/QueryState"
                    }
                  ]
                }
              },
              "summary": "Fetch the next page of an infinite query; reply once settled."
            },
            {
              "description": "Fetches the page before the first one of an infinite query (prepended) and replies once the fetch settles, with the state (a failure is reported in the state: status error and isFetchPreviousPageError, the pages unchanged; not an RPC error). With no such page (hasPreviousPage false) nothing is fetched and the reply is the current state at once; with no data the first page is loaded with initialPageParam. maxPages drops pages from the back. With another fetch in flight and data cached, cancelRefetch true (default) cancels it and starts the page fetch; false joins it. See protocol/methods/infinite.md.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                },
                {
                  "code": -32005,
                  "message": "Unknown subscription"
                },
                {
                  "code": -32003,
                  "message": "Cancelled by the server"
                },
                {
                  "code": -32800,
                  "message": "Request cancelled"
                }
              ],
              "examples": [
                {
                  "name": "fetchPreviousPage",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "feed"
                      ]
                    }
                  ],
                  "result": {
                    "name": "fetchPreviousPageResult",
                    "value": {
                      "data": {
                        "pageParams": [
                          0,
                          1,
                          2
                        ],
                        "pages": [
                          [
                            "z"
                          ],
                          [
                            "a",
                            "b"
                          ],
                          [
                            "c",
                            "d"
                          ]
                        ]
                      },
                      "dataUpdateCount": 3,
                      "dataUpdatedAt": 1700000000000,
                      "epoch": "5f0c6e2a9b1d4e73",
                      "error": null,
                      "errorUpdateCount": 0,
                      "errorUpdatedAt": 0,
                      "failureCount": 0,
                      "failureReason": null,
                      "fetchStatus": "idle",
                      "hasNextPage": true,
                      "hasPreviousPage": false,
                      "isError": false,
                      "isFetchNextPageError": false,
                      "isFetchPreviousPageError": false,
                      "isFetched": true,
                      "isFetching": false,
                      "isFetchingNextPage": false,
                      "isFetchingPreviousPage": false,
                      "isInvalidated": false,
                      "isLoading": false,
                      "isPaused": false,
                      "isPending": false,
                      "isPlaceholderData": false,
                      "isRefetching": false,
                      "isStale": true,
                      "isSuccess": true,
                      "key": [
                        "feed"
                      ],
                      "status": "success",
                      "version": 7
                    }
                  }
                }
              ],
              "name": "query.fetchPreviousPage",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "A subscription of this connection (its options and view are used).",
                  "name": "subscription",
                  "schema": {
                    "$ref": "#/components/schemas/SubscriptionId"
                  }
                },
                {
                  "description": "A query key (when no subscription is given): the query's remembered options, query-level state; null result when not cached.",
                  "name": "key",
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "Replace a fetch in flight when there is data; false joins it.",
                  "name": "cancelRefetch",
                  "schema": {
                    "default": true,
                    "type": "boolean"
                  }
                }
              ],
              "result": {
                "description": "The settled state, or null.",
                "name": "state",
                "schema": {
                  "oneOf": [
                    {
                      "type": "null"
                    },
                    {
                      "$ref": "#/components/schemas/QueryState"
                    }
                  ]
                }
              },
              "summary": "Fetch the previous page of an infinite query; reply once settled."
            },
            {
              "description": "Sets isInvalidated on every match (already-invalidated ones are left alone), then refetches in the background according to refetchType (default active: queries with an enabled subscription). Replies at once.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "invalidate",
                  "params": [
                    {
                      "name": "filter",
                      "value": {
                        "key": [
                          "todos"
                        ]
                      }
                    }
                  ],
                  "result": {
                    "name": "invalidateResult",
                    "value": {
                      "matched": 2
                    }
                  }
                }
              ],
              "name": "queries.invalidate",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "Which queries; absent matches every query.",
                  "name": "filter",
                  "schema": {
                    "$ref": "#/components/schemas/QueryFilter"
                  }
                },
                {
                  "description": "Which of the matches to refetch.",
                  "name": "refetchType",
                  "schema": {
                    "default": "active",
                    "enum": [
                      "active",
                      "inactive",
                      "all",
                      "none"
                    ]
                  }
                }
              ],
              "result": {
                "description": "How many queries matched the filter.",
                "name": "matched",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "matched": {
                      "minimum": 0,
                      "type": "integer"
                    }
                  },
                  "required": [
                    "matched"
                  ],
                  "type": "object"
                }
              },
              "summary": "Mark matching queries stale and refetch some of them."
            },
            {
              "description": "Starts a fetch (cancelRefetch true) for each match except disabled ones (subscriptions but none enabled, or none and never fetched) and static ones. Replies at once with the number of matches.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "refetch",
                  "params": [
                    {
                      "name": "filter",
                      "value": {
                        "key": [
                          "todos"
                        ],
                        "type": "active"
                      }
                    }
                  ],
                  "result": {
                    "name": "refetchResult",
                    "value": {
                      "matched": 1
                    }
                  }
                }
              ],
              "name": "queries.refetch",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "Which queries; absent matches every query.",
                  "name": "filter",
                  "schema": {
                    "$ref": "#/components/schemas/QueryFilter"
                  }
                }
              ],
              "result": {
                "description": "How many queries matched the filter.",
                "name": "matched",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "matched": {
                      "minimum": 0,
                      "type": "integer"
                    }
                  },
                  "required": [
                    "matched"
                  ],
                  "type": "object"
                }
              },
              "summary": "Refetch matching queries in the background."
            },
            {
              "description": "As query.cancel with revert true, for every match (idle matches are left alone but counted).",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "cancel",
                  "params": [
                    {
                      "name": "filter",
                      "value": {
                        "fetchStatus": "fetching"
                      }
                    }
                  ],
                  "result": {
                    "name": "cancelResult",
                    "value": {
                      "matched": 1
                    }
                  }
                }
              ],
              "name": "queries.cancel",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "Which queries; absent matches every query.",
                  "name": "filter",
                  "schema": {
                    "$ref": "#/components/schemas/QueryFilter"
                  }
                }
              ],
              "result": {
                "description": "How many queries matched the filter.",
                "name": "matched",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "matched": {
                      "minimum": 0,
                      "type": "integer"
                    }
                  },
                  "required": [
                    "matched"
                  ],
                  "type": "object"
                }
              },
              "summary": "Cancel the fetches of matching queries (revert true)."
            },
            {
              "description": "Fetches in flight are cancelled (waiting query.fetch/query.ensure callers get -32003 {reason:'removed'}). A match with subscriptions is re-created at once as an empty query (version starting at 1, initialData of its remembered options if any) and its subscribers are sent that state; nothing is fetched. Other matches are gone.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "remove",
                  "params": [
                    {
                      "name": "filter",
                      "value": {
                        "key": [
                          "user"
                        ]
                      }
                    }
                  ],
                  "result": {
                    "name": "removeResult",
                    "value": {
                      "matched": 1
                    }
                  }
                }
              ],
              "name": "queries.remove",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "Which queries; absent matches every query.",
                  "name": "filter",
                  "schema": {
                    "$ref": "#/components/schemas/QueryFilter"
                  }
                }
              ],
              "result": {
                "description": "How many queries matched the filter.",
                "name": "matched",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "matched": {
                      "minimum": 0,
                      "type": "integer"
                    }
                  },
                  "required": [
                    "matched"
                  ],
                  "type": "object"
                }
              },
              "summary": "Remove matching queries from the cache."
            },
            {
              "description": "Each match goes back to pending/idle with no data (or the initialData of its remembered options); fetches in flight are cancelled (waiting query.fetch/query.ensure callers get -32003 {reason:'reset'}), subscribers are notified, then matches with an enabled subscription that are not static refetch. Unused matches start their gc timer again.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "reset",
                  "params": [
                    {
                      "name": "filter",
                      "value": {
                        "exact": true,
                        "key": [
                          "todos"
                        ]
                      }
                    }
                  ],
                  "result": {
                    "name": "resetResult",
                    "value": {
                      "matched": 1
                    }
                  }
                }
              ],
              "name": "queries.reset",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "Which queries; absent matches every query.",
                  "name": "filter",
                  "schema": {
                    "$ref": "#/components/schemas/QueryFilter"
                  }
                }
              ],
              "result": {
                "description": "How many queries matched the filter.",
                "name": "matched",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "matched": {
                      "minimum": 0,
                      "type": "integer"
                    }
                  },
                  "required": [
                    "matched"
                  ],
                  "type": "object"
                }
              },
              "summary": "Reset matching queries to their initial state, then refetch the active ones."
            },
            {
              "description": "Ordered by the key's canonical JSON text. isStale is each query's own staleness (staleTime 0).",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "list",
                  "params": [
                    {
                      "name": "filter",
                      "value": {
                        "key": [
                          "todos"
                        ]
                      }
                    }
                  ],
                  "result": {
                    "name": "listResult",
                    "value": [
                      {
                        "data": [
                          "buy milk"
                        ],
                        "dataUpdateCount": 1,
                        "dataUpdatedAt": 1700000000000,
                        "epoch": "5f0c6e2a9b1d4e73",
                        "error": null,
                        "errorUpdateCount": 0,
                        "errorUpdatedAt": 0,
                        "failureCount": 0,
                        "failureReason": null,
                        "fetchStatus": "idle",
                        "isError": false,
                        "isFetched": true,
                        "isFetching": false,
                        "isInvalidated": false,
                        "isLoading": false,
                        "isPaused": false,
                        "isPending": false,
                        "isPlaceholderData": false,
                        "isRefetching": false,
                        "isStale": true,
                        "isSuccess": true,
                        "key": [
                          "todos"
                        ],
                        "observers": 1,
                        "status": "success",
                        "version": 3
                      },
                      {
                        "data": [
                          "call mum"
                        ],
                        "dataUpdateCount": 1,
                        "dataUpdatedAt": 1700000002000,
                        "epoch": "5f0c6e2a9b1d4e73",
                        "error": null,
                        "errorUpdateCount": 0,
                        "errorUpdatedAt": 0,
                        "failureCount": 0,
                        "failureReason": null,
                        "fetchStatus": "idle",
                        "isError": false,
                        "isFetched": true,
                        "isFetching": false,
                        "isInvalidated": false,
                        "isLoading": false,
                        "isPaused": false,
                        "isPending": false,
                        "isPlaceholderData": false,
                        "isRefetching": false,
                        "isStale": true,
                        "isSuccess": true,
                        "key": [
                          "todos",
                          {
                            "page": 2
                          }
                        ],
                        "observers": 0,
                        "status": "success",
                        "version": 3
                      }
                    ]
                  }
                }
              ],
              "name": "queries.list",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "Which queries; absent matches every query.",
                  "name": "filter",
                  "schema": {
                    "$ref": "#/components/schemas/QueryFilter"
                  }
                },
                {
                  "description": "Protocol 2: ask for one page; null for the first, then the last page's nextCursor (opaque). Pages follow the key order: a query that exists throughout the paging is listed exactly once.",
                  "name": "cursor",
                  "schema": {
                    "type": [
                      "string",
                      "null"
                    ]
                  }
                },
                {
                  "description": "Protocol 2, with cursor only: the most states on a page. Default 100.",
                  "name": "limit",
                  "schema": {
                    "maximum": 1000,
                    "minimum": 1,
                    "type": "integer"
                  }
                }
              ],
              "result": {
                "description": "Without cursor: the states, ordered by the bytes of the key's canonical text. With cursor: one page, nextCursor absent on the last.",
                "name": "states",
                "schema": {
                  "oneOf": [
                    {
                      "items": {
                        "$ref": "#/components/schemas/QueryStateWithObservers"
                      },
                      "type": "array"
                    },
                    {
                      "additionalProperties": false,
                      "properties": {
                        "nextCursor": {
                          "type": "string"
                        },
                        "queries": {
                          "items": {
                            "$ref": "#/components/schemas/QueryStateWithObservers"
                          },
                          "type": "array"
                        }
                      },
                      "required": [
                        "queries"
                      ],
                      "type": "object"
                    }
                  ]
                }
              },
              "summary": "States of matching queries, with their observer counts."
            },
            {
              "description": "From now on this connection receives mutate requests for mutations whose key matches key (prefix and partial object match, or identity with exact). Longest key wins; among equals the least busy mutator, then the oldest.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "register",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "todos"
                      ]
                    }
                  ],
                  "result": {
                    "name": "registerResult",
                    "value": {
                      "mutator": 1
                    }
                  }
                }
              ],
              "name": "mutator.register",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "Key prefix to serve; [] serves every key.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/KeyPrefix"
                  }
                },
                {
                  "description": "Serve only the key equal to key (key must be non-empty).",
                  "name": "exact",
                  "schema": {
                    "default": false,
                    "type": "boolean"
                  }
                }
              ],
              "result": {
                "description": "The new mutator's id.",
                "name": "registration",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "mutator": {
                      "$ref": "#/components/schemas/MutatorId"
                    }
                  },
                  "required": [
                    "mutator"
                  ],
                  "type": "object"
                }
              },
              "summary": "Serve mutate requests for mutation keys under a prefix."
            },
            {
              "description": "New attempts no longer go to this mutator; attempts already sent to it still accept its answers. Closing the connection unregisters all its mutators and fails their attempts in flight.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                },
                {
                  "code": -32005,
                  "message": "Unknown mutator"
                }
              ],
              "examples": [
                {
                  "name": "unregister",
                  "params": [
                    {
                      "name": "mutator",
                      "value": 1
                    }
                  ],
                  "result": {
                    "name": "unregisterResult",
                    "value": {}
                  }
                }
              ],
              "name": "mutator.unregister",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The id from mutator.register.",
                  "name": "mutator",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/MutatorId"
                  }
                }
              ],
              "result": {
                "description": "An empty object.",
                "name": "empty",
                "schema": {
                  "additionalProperties": false,
                  "type": "object"
                }
              },
              "summary": "Stop serving a prefix."
            },
            {
              "description": "The optimistic writes are made at once; the mutation then waits for its scope and the network (isPaused), calls the mutator (mutate request), retries per retry/retryDelay, and settles. On success: setData writes, invalidations, then the answer {data}. On failure after the retries: the optimistic writes are rolled back exactly and the answer is -32007 with the mutator's last error as data. No mutator registered for the key fails an attempt with {code:-32002, message:'No mutator'}. $/cancelRequest answers the caller with -32800; the mutation goes on.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                },
                {
                  "code": -32007,
                  "message": "Mutation failed"
                },
                {
                  "code": -32003,
                  "message": "Cancelled by the server"
                }
              ],
              "examples": [
                {
                  "name": "run",
                  "params": [
                    {
                      "name": "key",
                      "value": [
                        "todos",
                        "add"
                      ]
                    },
                    {
                      "name": "variables",
                      "value": {
                        "title": "b"
                      }
                    },
                    {
                      "name": "options",
                      "value": {
                        "invalidate": [
                          {
                            "key": [
                              "todos"
                            ]
                          }
                        ],
                        "optimistic": [
                          {
                            "data": [
                              "a",
                              "b"
                            ],
                            "key": [
                              "todos"
                            ]
                          }
                        ]
                      }
                    }
                  ],
                  "result": {
                    "name": "runResult",
                    "value": {
                      "data": {
                        "id": 2
                      }
                    }
                  }
                }
              ],
              "name": "mutation.run",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The mutation key (a non-empty array); chooses the mutator.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "Passed to the mutator (null when absent).",
                  "name": "variables",
                  "schema": {
                    "$ref": "#/components/schemas/JsonValue"
                  }
                },
                {
                  "description": "Retries, optimistic writes, invalidation, result writes, scope.",
                  "name": "options",
                  "schema": {
                    "$ref": "#/components/schemas/MutationOptions"
                  }
                }
              ],
              "result": {
                "description": "The mutator's data.",
                "name": "outcome",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "data": {
                      "$ref": "#/components/schemas/JsonValue"
                    }
                  },
                  "required": [
                    "data"
                  ],
                  "type": "object"
                }
              },
              "summary": "Run a mutation through the daemon."
            },
            {
              "description": "Returns the kept mutations the filter covers, then sends mutation.changed {subscription, mutation} for every change of a covered mutation, including the change that makes it leave the filter. Pushes coalesce to the latest state per (subscription, mutation).",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "subscribe",
                  "params": [
                    {
                      "name": "filter",
                      "value": {
                        "status": "pending"
                      }
                    }
                  ],
                  "result": {
                    "name": "subscribeResult",
                    "value": {
                      "mutations": [
                        {
                          "error": null,
                          "failureCount": 0,
                          "failureReason": null,
                          "id": 1,
                          "isPaused": false,
                          "key": [
                            "todos",
                            "add"
                          ],
                          "status": "pending",
                          "submittedAt": 1700000000000,
                          "variables": {
                            "title": "b"
                          },
                          "version": 1
                        }
                      ],
                      "subscription": 3
                    }
                  }
                }
              ],
              "name": "mutation.subscribe",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "Which mutations; absent covers all.",
                  "name": "filter",
                  "schema": {
                    "$ref": "#/components/schemas/MutationFilter"
                  }
                }
              ],
              "result": {
                "name": "subscription",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "mutations": {
                      "items": {
                        "$ref": "#/components/schemas/MutationState"
                      },
                      "type": "array"
                    },
                    "subscription": {
                      "$ref": "#/components/schemas/SubscriptionId"
                    }
                  },
                  "required": [
                    "subscription",
                    "mutations"
                  ],
                  "type": "object"
                }
              },
              "summary": "Watch mutations."
            },
            {
              "description": "Ends a mutation subscription of this connection; unwritten pushes are dropped.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                },
                {
                  "code": -32005,
                  "message": "Unknown subscription"
                }
              ],
              "examples": [
                {
                  "name": "unsubscribe",
                  "params": [
                    {
                      "name": "subscription",
                      "value": 3
                    }
                  ],
                  "result": {
                    "name": "unsubscribeResult",
                    "value": {}
                  }
                }
              ],
              "name": "mutation.unsubscribe",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The id from mutation.subscribe.",
                  "name": "subscription",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/SubscriptionId"
                  }
                }
              ],
              "result": {
                "description": "An empty object.",
                "name": "empty",
                "schema": {
                  "additionalProperties": false,
                  "type": "object"
                }
              },
              "summary": "Stop watching mutations."
            },
            {
              "description": "The kept mutations (unsettled ones, and settled ones for their gcTime) that the filter covers, in submission order. {status:'pending'} lists the pending ones (TanStack's isMutating).",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "list",
                  "params": [
                    {
                      "name": "filter",
                      "value": {
                        "status": "pending"
                      }
                    }
                  ],
                  "result": {
                    "name": "listResult",
                    "value": [
                      {
                        "error": null,
                        "failureCount": 0,
                        "failureReason": null,
                        "id": 1,
                        "isPaused": false,
                        "key": [
                          "todos",
                          "add"
                        ],
                        "status": "pending",
                        "submittedAt": 1700000000000,
                        "variables": {
                          "title": "b"
                        },
                        "version": 1
                      }
                    ]
                  }
                }
              ],
              "name": "mutations.list",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "Which mutations; absent lists all.",
                  "name": "filter",
                  "schema": {
                    "$ref": "#/components/schemas/MutationFilter"
                  }
                }
              ],
              "result": {
                "name": "mutations",
                "schema": {
                  "items": {
                    "$ref": "#/components/schemas/MutationState"
                  },
                  "type": "array"
                }
              },
              "summary": "List mutations."
            },
            {
              "description": "Offline: new mutations and retries pause (isPaused), attempts in flight go on. Online: paused mutations resume first, in submission order (scoped ones one after another).",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "offline",
                  "params": [
                    {
                      "name": "online",
                      "value": false
                    }
                  ],
                  "result": {
                    "name": "offlineResult",
                    "value": {}
                  }
                }
              ],
              "name": "network.setOnline",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The new state.",
                  "name": "online",
                  "required": true,
                  "schema": {
                    "type": "boolean"
                  }
                }
              ],
              "result": {
                "description": "An empty object.",
                "name": "empty",
                "schema": {
                  "additionalProperties": false,
                  "type": "object"
                }
              },
              "summary": "Set the daemon-wide network state."
            },
            {
              "description": "Sets this connection's focus (every connection starts focused). false: polling of this connection's subscriptions stops except with refetchIntervalInBackground. true after false: polling resumes (next poll one interval later) and, once per query, the first enabled subscription of this connection whose refetchOnFocus allows it refetches (true: when stale for it; \"always\": even when fresh, not for staleTime \"static\"). Setting the focus it already has does nothing. Other connections are not affected; retries are never held back by focus.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "unfocus",
                  "params": [
                    {
                      "name": "focused",
                      "value": false
                    }
                  ],
                  "result": {
                    "name": "unfocusResult",
                    "value": {}
                  }
                }
              ],
              "name": "client.setFocused",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "Whether this connection is focused.",
                  "name": "focused",
                  "required": true,
                  "schema": {
                    "type": "boolean"
                  }
                }
              ],
              "result": {
                "description": "An empty object.",
                "name": "empty",
                "schema": {
                  "additionalProperties": false,
                  "type": "object"
                }
              },
              "summary": "Set this connection's focus (TanStack's window focus)."
            },
            {
              "description": "Refetches, once each, every query with at least one enabled subscription (any connection) whose refetchOn option lists name, stale or not (staleTime \"static\" included), in the order of their keys' canonical text; a fetch in flight is joined. Beyond TanStack: named refetch triggers.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "emit",
                  "params": [
                    {
                      "name": "name",
                      "value": "todo-saved"
                    }
                  ],
                  "result": {
                    "name": "emitResult",
                    "value": {
                      "matched": 1
                    }
                  }
                }
              ],
              "name": "events.emit",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "The event name, compared exactly.",
                  "name": "name",
                  "required": true,
                  "schema": {
                    "minLength": 1,
                    "type": "string"
                  }
                }
              ],
              "result": {
                "description": "How many queries were refetched (or joined).",
                "name": "matched",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "matched": {
                      "minimum": 0,
                      "type": "integer"
                    }
                  },
                  "required": [
                    "matched"
                  ],
                  "type": "object"
                }
              },
              "summary": "Raise a named event: refetch the queries whose subscriptions listen for it."
            },
            {
              "description": "Due timers (staleness, retry delays, gcTime, timeouts) fire in time order during the advance, each at its own due time; what they cause, such as a retry's fetch request or a query.changed, is queued before this reply. ms 0 fires the timers due now (timers never fire outside clock.advance).",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "advance",
                  "params": [
                    {
                      "name": "ms",
                      "value": 1000
                    }
                  ],
                  "result": {
                    "name": "advanceResult",
                    "value": {
                      "now": 1700000001000
                    }
                  }
                }
              ],
              "name": "clock.advance",
              "paramStructure": "by-name",
              "params": [
                {
                  "description": "How far to move, in ms.",
                  "name": "ms",
                  "required": true,
                  "schema": {
                    "minimum": 0,
                    "type": "integer"
                  }
                }
              ],
              "result": {
                "description": "The virtual clock after the call.",
                "name": "now",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "now": {
                      "description": "Virtual clock, ms since the epoch.",
                      "type": "integer"
                    }
                  },
                  "required": [
                    "now"
                  ],
                  "type": "object"
                }
              },
              "summary": "Move the virtual clock forward (--manual-clock only).",
              "x-gate": "manual-clock"
            },
            {
              "description": "Starts at 1700000000000.",
              "errors": [],
              "examples": [
                {
                  "name": "now",
                  "params": [],
                  "result": {
                    "name": "nowResult",
                    "value": {
                      "now": 1700000000000
                    }
                  }
                }
              ],
              "name": "clock.now",
              "paramStructure": "by-name",
              "params": [],
              "result": {
                "description": "The virtual clock after the call.",
                "name": "now",
                "schema": {
                  "additionalProperties": false,
                  "properties": {
                    "now": {
                      "description": "Virtual clock, ms since the epoch.",
                      "type": "integer"
                    }
                  },
                  "required": [
                    "now"
                  ],
                  "type": "object"
                }
              },
              "summary": "Read the virtual clock (--manual-clock only).",
              "x-gate": "manual-clock"
            },
            {
              "description": "Accepts [minuend, subtrahend] or {minuend, subtrahend}.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "subtract",
                  "params": [
                    {
                      "name": "minuend",
                      "value": 42
                    },
                    {
                      "name": "subtrahend",
                      "value": 23
                    }
                  ],
                  "result": {
                    "name": "subtractResult",
                    "value": 19
                  }
                }
              ],
              "name": "test.subtract",
              "paramStructure": "either",
              "params": [
                {
                  "description": "Number to subtract from.",
                  "name": "minuend",
                  "required": true,
                  "schema": {
                    "type": "number"
                  }
                },
                {
                  "description": "Number to subtract.",
                  "name": "subtrahend",
                  "required": true,
                  "schema": {
                    "type": "number"
                  }
                }
              ],
              "result": {
                "description": "minuend - subtrahend.",
                "name": "difference",
                "schema": {
                  "type": "number"
                }
              },
              "summary": "JSON-RPC conformance fixture: minuend - subtrahend (--test-methods only).",
              "x-gate": "test-methods"
            },
            {
              "description": "By position: every element is a term ([1,2,4]). By name: {numbers: [1,2,4]}. Absent params are -32602.",
              "errors": [
                {
                  "code": -32602,
                  "message": "Invalid params"
                }
              ],
              "examples": [
                {
                  "name": "sum",
                  "params": [
                    {
                      "name": "numbers",
                      "value": [
                        1,
                        2,
                        4
                      ]
                    }
                  ],
                  "result": {
                    "name": "sumResult",
                    "value": 7
                  }
                }
              ],
              "name": "test.sum",
              "paramStructure": "either",
              "params": [
                {
                  "description": "The terms (by name); by position the params array itself.",
                  "name": "numbers",
                  "required": true,
                  "schema": {
                    "items": {
                      "type": "number"
                    },
                    "type": "array"
                  }
                }
              ],
              "result": {
                "description": "The sum.",
                "name": "sum",
                "schema": {
                  "type": "number"
                }
              },
              "summary": "JSON-RPC conformance fixture: the sum of numbers (--test-methods only).",
              "x-gate": "test-methods"
            },
            {
              "description": "Ignores its params (any object or array).",
              "errors": [],
              "examples": [
                {
                  "name": "getData",
                  "params": [],
                  "result": {
                    "name": "getDataResult",
                    "value": [
                      "hello",
                      5
                    ]
                  }
                }
              ],
              "name": "test.getData",
              "paramStructure": "either",
              "params": [],
              "result": {
                "description": "Always [\"hello\", 5].",
                "name": "data",
                "schema": {
                  "type": "array"
                }
              },
              "summary": "JSON-RPC conformance fixture: returns [\"hello\", 5] (--test-methods only).",
              "x-gate": "test-methods"
            },
            {
              "description": "Any params (object or array) come back as the result, byte-exact after canonical encoding; absent params give null. Used to check output framing (escaped newlines, U+2028, NUL).",
              "errors": [],
              "examples": [
                {
                  "name": "echo",
                  "params": [
                    {
                      "name": "text",
                      "value": "line\nbreak\u2028"
                    }
                  ],
                  "result": {
                    "name": "echoResult",
                    "value": {
                      "text": "line\nbreak\u2028"
                    }
                  }
                }
              ],
              "name": "test.echo",
              "paramStructure": "either",
              "params": [],
              "result": {
                "description": "The params as sent.",
                "name": "params",
                "schema": {}
              },
              "summary": "Returns its params unchanged (--test-methods only).",
              "x-gate": "test-methods"
            }
          ],
          "openrpc": "1.3.0",
          "x-server-to-client": [
            {
              "description": "Answer with result {data} (data may be null) or with an error object (one failed attempt; retries follow the query's retry options). A result without a data member, or one that is not an object, fails the attempt with {code:-32602, message:'data is undefined'}, and the retry rules apply; a malformed answer fails it with {code:-32600, message:'Malformed response', data:{reason}}. Ids are positive integers counted per connection.",
              "examples": [
                {
                  "name": "fetch",
                  "params": [
                    {
                      "name": "fetcher",
                      "value": 1
                    },
                    {
                      "name": "key",
                      "value": [
                        "todos"
                      ]
                    },
                    {
                      "name": "attempt",
                      "value": 1
                    }
                  ],
                  "result": {
                    "name": "fetchResult",
                    "value": {
                      "data": [
                        "buy milk"
                      ]
                    }
                  }
                }
              ],
              "name": "fetch",
              "params": [
                {
                  "description": "Which of this connection's fetchers is asked.",
                  "name": "fetcher",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/FetcherId"
                  }
                },
                {
                  "description": "The query key.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "1 for the first attempt, +1 per retry.",
                  "name": "attempt",
                  "required": true,
                  "schema": {
                    "minimum": 1,
                    "type": "integer"
                  }
                },
                {
                  "description": "The meta option the fetch started with; present only when set.",
                  "name": "meta",
                  "schema": {}
                }
              ],
              "result": {
                "description": "The fetched data.",
                "name": "fetched",
                "schema": {
                  "properties": {
                    "data": {}
                  },
                  "required": [
                    "data"
                  ],
                  "type": "object"
                }
              },
              "summary": "Run one fetch attempt for a query (sent to a fetcher's connection).",
              "x-direction": "server-to-client",
              "x-kind": "request"
            },
            {
              "description": "Sent when a fetch is cancelled, replaced, removed or reset, when its attempt times out, or when it is abandoned (cancellable fetchers only). A late answer is ignored.",
              "examples": [
                {
                  "name": "cancel",
                  "params": [
                    {
                      "name": "id",
                      "value": 1
                    }
                  ],
                  "result": {
                    "name": "cancelResult",
                    "value": null
                  }
                }
              ],
              "name": "$/cancelRequest",
              "params": [
                {
                  "description": "The id of the server's fetch request.",
                  "name": "id",
                  "required": true,
                  "schema": {
                    "minimum": 1,
                    "type": "integer"
                  }
                }
              ],
              "summary": "The server no longer wants the answer to its request id.",
              "x-direction": "server-to-client",
              "x-kind": "notification"
            },
            {
              "description": "Protocol 2: the last line before the daemon closes this connection for a limit, when the socket still takes it. max-message-bytes: after the -32600 for the over-long line. max-outbound-bytes: the output still held in the daemon is dropped and this line queued behind what the socket holds; a peer that does not read it all within 1 s is cut off without it.",
              "examples": [
                {
                  "name": "closing",
                  "params": [
                    {
                      "name": "reason",
                      "value": "70254608 bytes of output unread (limit --max-outbound-bytes 67108864)"
                    },
                    {
                      "name": "limit",
                      "value": "max-outbound-bytes"
                    }
                  ],
                  "result": {
                    "name": "closingResult",
                    "value": null
                  }
                }
              ],
              "name": "$/closing",
              "params": [
                {
                  "description": "What happened, for people (the text the daemon logs).",
                  "name": "reason",
                  "required": true,
                  "schema": {
                    "type": "string"
                  }
                },
                {
                  "description": "The limit, named as its flag without --.",
                  "name": "limit",
                  "required": true,
                  "schema": {
                    "enum": [
                      "max-outbound-bytes",
                      "max-message-bytes"
                    ],
                    "type": "string"
                  }
                }
              ],
              "summary": "The daemon is closing this connection because it passed a limit.",
              "x-direction": "server-to-client",
              "x-kind": "notification"
            },
            {
              "description": "Sent to the subscribing connection after the query.subscribe (or query.setOptions) reply, only when the subscription's state differs from the last one sent. Coalesced: a queued, unwritten notification keeps its place in the output and carries the newest state, so intermediate states can be skipped; order by state.version (it never decreases for a key while state.epoch stays the same).",
              "examples": [
                {
                  "name": "changed",
                  "params": [
                    {
                      "name": "subscription",
                      "value": 1
                    },
                    {
                      "name": "state",
                      "value": {
                        "data": [
                          "buy milk"
                        ],
                        "dataUpdateCount": 1,
                        "dataUpdatedAt": 1700000000000,
                        "epoch": "5f0c6e2a9b1d4e73",
                        "error": null,
                        "errorUpdateCount": 0,
                        "errorUpdatedAt": 0,
                        "failureCount": 0,
                        "failureReason": null,
                        "fetchStatus": "idle",
                        "isError": false,
                        "isFetched": true,
                        "isFetching": false,
                        "isInvalidated": false,
                        "isLoading": false,
                        "isPaused": false,
                        "isPending": false,
                        "isPlaceholderData": false,
                        "isRefetching": false,
                        "isStale": true,
                        "isSuccess": true,
                        "key": [
                          "todos"
                        ],
                        "status": "success",
                        "version": 3
                      }
                    }
                  ],
                  "result": {
                    "name": "changedResult",
                    "value": null
                  }
                }
              ],
              "name": "query.changed",
              "params": [
                {
                  "description": "Present when the line with the data would be longer than --max-outbound-bytes: {limit:'max-outbound-bytes', max, bytes}; state then has no data although the query has some, and reading it gets -32006.",
                  "name": "dataOmitted",
                  "required": false,
                  "schema": {
                    "type": "object"
                  }
                },
                {
                  "description": "The subscription.",
                  "name": "subscription",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/SubscriptionId"
                  }
                },
                {
                  "description": "The subscription's new state. In the meta and patch push modes (protocol 2) it carries dataVersion; in meta mode never data; in patch mode data only when the push is full.",
                  "name": "state",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryState"
                  }
                },
                {
                  "description": "Protocol 2, patch push mode only: patch turns the data of dataVersion baseVersion (the last written to this subscription) into the data of dataVersion version (= state.dataVersion). Absent on full and unchanged pushes.",
                  "name": "patch",
                  "schema": {
                    "additionalProperties": false,
                    "properties": {
                      "baseVersion": {
                        "minimum": 1,
                        "type": "integer"
                      },
                      "patch": {
                        "description": "An RFC 7396 JSON Merge Patch."
                      },
                      "version": {
                        "minimum": 1,
                        "type": "integer"
                      }
                    },
                    "required": [
                      "baseVersion",
                      "version",
                      "patch"
                    ],
                    "type": "object"
                  }
                },
                {
                  "description": "true: the state is a fresh start for this subscription; discard what was derived from earlier pushes (e.g. a patch base). Reserved for a cluster resync: this daemon never sends it (within one daemon's life versions only grow).",
                  "name": "resync",
                  "required": false,
                  "schema": {
                    "type": "boolean"
                  }
                }
              ],
              "summary": "A subscription's state changed.",
              "x-direction": "server-to-client",
              "x-kind": "notification"
            },
            {
              "description": "Answer with result {data} (data may be null) or with an error object (one failed attempt; retries follow the mutation's retry options). A result without data fails the attempt with {code:-32602, message:'data is undefined'}. $/cancelRequest withdraws it (attempt timeout). Ids are positive integers counted per connection.",
              "examples": [
                {
                  "name": "mutate",
                  "params": [
                    {
                      "name": "mutator",
                      "value": 1
                    },
                    {
                      "name": "key",
                      "value": [
                        "todos",
                        "add"
                      ]
                    },
                    {
                      "name": "variables",
                      "value": {
                        "title": "b"
                      }
                    },
                    {
                      "name": "attempt",
                      "value": 1
                    }
                  ],
                  "result": {
                    "name": "mutateResult",
                    "value": {
                      "data": {
                        "id": 2
                      }
                    }
                  }
                }
              ],
              "name": "mutate",
              "params": [
                {
                  "description": "Which of this connection's mutators is asked.",
                  "name": "mutator",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/MutatorId"
                  }
                },
                {
                  "description": "The mutation key.",
                  "name": "key",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryKey"
                  }
                },
                {
                  "description": "The variables of mutation.run (null when absent).",
                  "name": "variables",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/JsonValue"
                  }
                },
                {
                  "description": "1 for the first attempt, +1 per retry.",
                  "name": "attempt",
                  "required": true,
                  "schema": {
                    "minimum": 1,
                    "type": "integer"
                  }
                }
              ],
              "result": {
                "name": "mutateResult",
                "schema": {
                  "properties": {
                    "data": {
                      "$ref": "#/components/schemas/JsonValue"
                    }
                  },
                  "required": [
                    "data"
                  ],
                  "type": "object"
                }
              },
              "summary": "One attempt of a mutation, sent to the chosen mutator.",
              "x-direction": "server-to-client",
              "x-kind": "request"
            },
            {
              "description": "Sent to mutation.subscribe subscriptions; the latest state per (subscription, mutation) is written.",
              "examples": [
                {
                  "name": "changed",
                  "params": [
                    {
                      "name": "subscription",
                      "value": 3
                    },
                    {
                      "name": "mutation",
                      "value": {
                        "error": null,
                        "failureCount": 0,
                        "failureReason": null,
                        "id": 1,
                        "isPaused": false,
                        "key": [
                          "todos",
                          "add"
                        ],
                        "status": "pending",
                        "submittedAt": 1700000000000,
                        "variables": {
                          "title": "b"
                        },
                        "version": 1
                      }
                    }
                  ]
                }
              ],
              "name": "mutation.changed",
              "params": [
                {
                  "description": "The mutation subscription.",
                  "name": "subscription",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/SubscriptionId"
                  }
                },
                {
                  "description": "The mutation's new state.",
                  "name": "mutation",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/MutationState"
                  }
                }
              ],
              "summary": "A watched mutation changed (notification).",
              "x-direction": "server-to-client",
              "x-kind": "notification"
            }
          ]
        }
        """#
}
