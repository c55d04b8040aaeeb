// The OpenRPC 1.2.6 description of queryd protocol 1, which `rpc.discover` serves.
// The text must stay the same document (as parsed JSON) as protocol/openrpc.json; a test compares them.
// The server parses it once at startup and drops the methods whose gate, in `gatedMethods`, is off,
// so the listed methods always equal the dispatcher's table.

/// The machine-readable description of the wire protocol, served by `rpc.discover`.
///
/// See protocol/README.md for the prose specification; every method here has a page under
/// protocol/methods/.
enum OpenRPCDocument {
    /// Methods that exist only when a `queryd serve` flag is on: method name to gate name.
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
                    "items": {
                      "type": "string"
                    },
                    "type": "array"
                  },
                  "protocol": {
                    "const": 1
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
                  "capabilities"
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
              "QueryFilter": {
                "properties": {
                  "exact": {
                    "default": false,
                    "description": "Match only the key equal to key.",
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
                    "description": "TanStack's query.isStale().",
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
                "description": "Options served by protocol 1. Unknown members are ignored.",
                "properties": {
                  "enabled": {
                    "default": true,
                    "description": "Subscriptions only: false = never fetch automatically.",
                    "type": "boolean"
                  },
                  "gcTime": {
                    "default": 300000,
                    "description": "ms an unused query stays cached; null = forever. The query keeps the largest value it was given.",
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
                  "placeholderData": {
                    "description": "Subscriptions only: data shown while pending; never cached."
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
                    "description": "Subscriptions only: RFC 6901 JSON Pointer projecting data; \"\" = whole value.",
                    "type": "string"
                  },
                  "staleTime": {
                    "allOf": [
                      {
                        "$ref": "#/components/schemas/StaleTime"
                      }
                    ],
                    "description": "ms after dataUpdatedAt when data becomes stale, or static. Default 0."
                  },
                  "timeout": {
                    "description": "ms per attempt (then the attempt fails with -32004) and ms a caller waits for a fetcher (then -32002). Default: none.",
                    "minimum": 1,
                    "type": "integer"
                  }
                },
                "type": "object"
              },
              "QueryState": {
                "description": "A query's state as one observer sees it. Members are written sorted by name.",
                "properties": {
                  "data": {
                    "description": "The data (after select for a subscription); absent while there is none. null is data."
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
                  "error": {
                    "description": "The last final error, or null. A fetcher error is wrapped in -32001.",
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
                  "isError": {
                    "description": "status == error.",
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
                    "description": "isFetching && !isPending.",
                    "type": "boolean"
                  },
                  "isStale": {
                    "description": "Stale for the subscription's staleTime (query-level: staleTime 0).",
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
                    "description": "Grows with every change of the query's state.",
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
                "description": "A JSON-RPC id.",
                "oneOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "number"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "ServerStats": {
                "properties": {
                  "connections": {
                    "minimum": 0,
                    "type": "integer"
                  },
                  "fetchers": {
                    "minimum": 0,
                    "type": "integer"
                  },
                  "inFlightFetches": {
                    "minimum": 0,
                    "type": "integer"
                  },
                  "memory": {
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
                    "minimum": 0,
                    "type": "integer"
                  },
                  "queries": {
                    "minimum": 0,
                    "type": "integer"
                  },
                  "subscriptions": {
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
                "description": "ms, or \"static\" (never stale, not even after invalidation).",
                "oneOf": [
                  {
                    "minimum": 0,
                    "type": "integer"
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
            "description": "TanStack Query v5's cache as a daemon: newline-delimited JSON-RPC 2.0 over a Unix socket. info.version is the protocol version. The full specification is the protocol/ folder.",
            "title": "queryd",
            "version": "1"
          },
          "methods": [
            {
              "description": "Optional: no handshake is required. The client value is only logged. capabilities lists the name of every method rpc.discover lists, plus feature names (feature:manual-clock when --manual-clock is on).",
              "errors": [
                {
                  "code": -32602,
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
                    }
                  ],
                  "result": {
                    "name": "helloResult",
                    "value": {
                      "capabilities": [
                        "$/cancelRequest",
                        "clock.advance",
                        "clock.now",
                        "feature:manual-clock",
                        "fetcher.register",
                        "fetcher.unregister",
                        "queries.cancel",
                        "queries.invalidate",
                        "queries.list",
                        "queries.refetch",
                        "queries.remove",
                        "queries.reset",
                        "query.cancel",
                        "query.ensure",
                        "query.fetch",
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
                        "server.stats"
                      ],
                      "protocol": 1,
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
                }
              ],
              "result": {
                "description": "Server identity and capabilities.",
                "name": "hello",
                "schema": {
                  "$ref": "#/components/schemas/Hello"
                }
              },
              "summary": "Introduce the client; learn the server's version and capabilities."
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
              "description": "Integers: open connections, cached queries, subscriptions, registered fetchers, fetch requests awaiting a fetcher's answer, client requests awaiting their reply, and the process's resident memory.",
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
              "description": "Returns the OpenRPC 1.2.6 document of the protocol, listing exactly the methods enabled in this daemon (clock.* only with --manual-clock, test.* only with --test-methods).",
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
                        "version": "1"
                      },
                      "methods": [],
                      "openrpc": "1.2.6"
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
              "description": "Send without an id (a notification). The pending request of this connection with that id is answered at once with -32800; a shared fetch goes on only while someone else still wants it. Unknown or already answered ids are ignored. The server sends the same notification to fetchers (see x-server-to-client).",
              "errors": [],
              "examples": [
                {
                  "description": "No reply; request 7 is answered with -32800.",
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
              "description": "From now on this connection receives fetch requests for queries whose key matches key (prefix and partial object match, or identity with exact). Longest prefix wins; among equals the least busy fetcher. defaults act as query options for matching keys (the caller's options override them). cancellable: abandoned fetches are cancelled ($/cancelRequest, state reverted) instead of run to completion.",
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
                  "description": "Serve only the key equal to key.",
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
              "description": "Returns the cached state when its data is fresh for options.staleTime (default 0, so by default it always fetches, joining a fetch in flight). retry defaults to 0. A failure after retries is error -32001 whose data is the fetcher's last error object. enabled, refetchOnSubscribe, placeholderData and select are ignored.",
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
              "description": "Like query.fetch, but any cached data is returned without a fetch, however old or invalidated.",
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
              "description": "Exactly one of data and mergePatch (RFC 7396, applied to the cached data; no data patches {}). Creates the query when absent. status becomes success, error null, isInvalidated false, dataUpdateCount +1, dataUpdatedAt = updatedAt or now; a fetch in flight keeps running. Subscribers are notified.",
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
                      "version": 1
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
              "description": "options replace the subscription's options (absent members take their defaults). A new key moves the subscription to that query (the old one may then be garbage-collected). Fetches when the key changed or enabled went from false to true and the data is stale.",
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
                  "description": "The new options; absent means all defaults.",
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
              "description": "Give subscription or key. Fetches even when fresh or disabled. cancelRefetch (default true): when the query has data and a fetch is in flight, that fetch is cancelled and a new one started; otherwise the call joins it. A failed fetch is not an RPC error: the returned state has status error. null for an unknown key.",
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
                  "description": "A query key (when no subscription is given).",
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
              "description": "Cancels the fetch (including a pending retry delay) whatever the fetcher's kind; the fetcher is sent $/cancelRequest and a late answer is ignored. revert (default true) restores the state from before the fetch with fetchStatus idle; false leaves status error with a -32003 error. No-op when idle or absent.",
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
              "description": "As query.cancel with revert true, for every match.",
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
              "description": "Fetches in flight are cancelled (waiting callers get -32003). Subscriptions stay attached to the key but get no notification; their next fetch creates a fresh query.",
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
              "description": "Each match goes back to pending/idle with no data (or its initialData); fetches in flight are cancelled (waiting callers get -32003), subscribers are notified, then matches with an enabled subscription refetch.",
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
                }
              ],
              "result": {
                "description": "The states.",
                "name": "states",
                "schema": {
                  "items": {
                    "$ref": "#/components/schemas/QueryStateWithObservers"
                  },
                  "type": "array"
                }
              },
              "summary": "States of matching queries, with their observer counts."
            },
            {
              "description": "Due timers (staleness, retry delays, gcTime, timeouts) fire in time order during the advance; what they cause, such as a retry's fetch request or a query.changed, is written before this reply.",
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
              "description": "By position: every element is a term ([1,2,4]). By name: {numbers: [1,2,4]}.",
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
              "description": "No params.",
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
              "paramStructure": "by-name",
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
                      "value": "line\nbreak "
                    }
                  ],
                  "result": {
                    "name": "echoResult",
                    "value": {
                      "text": "line\nbreak "
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
          "openrpc": "1.2.6",
          "x-server-to-client": [
            {
              "description": "Answer with result {data} (data may be null; a missing data member fails the attempt with {code:-32602, message:'data is undefined'}) or with an error object (one failed attempt; retries follow the query's retry options). Ids are positive integers counted per connection.",
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
                  "description": "The query's meta option; present only when set.",
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
              "description": "Sent when a fetch is cancelled, replaced, timed out or abandoned (cancellable fetchers only for abandonment). A late answer is ignored.",
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
              "description": "Sent to the subscribing connection after the query.subscribe (or query.setOptions) reply. state.version never decreases while the key stays the same.",
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
                  "description": "The subscription.",
                  "name": "subscription",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/SubscriptionId"
                  }
                },
                {
                  "description": "The subscription's new state.",
                  "name": "state",
                  "required": true,
                  "schema": {
                    "$ref": "#/components/schemas/QueryState"
                  }
                }
              ],
              "summary": "A subscription's state changed.",
              "x-direction": "server-to-client",
              "x-kind": "notification"
            }
          ]
        }
        """#
}
