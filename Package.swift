// swift-tools-version: 6.0
// queryd: TanStack Query's cache as a daemon, shared over a Unix socket with JSON-RPC 2.0.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let logging = Target.Dependency.product(name: "Logging", package: "swift-log")

let package = Package(
    name: "queryd",
    // Apple platforms matter for the QuerydClient product only (Observation, AsyncStream.makeStream); the
    // daemon builds on Linux.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .executable(name: "queryd", targets: ["queryd"]),
        // The Swift client: depends only on QuerydJSON and QuerydRPC, so its users need no libuv.
        .library(name: "QuerydClient", targets: ["QuerydClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // System libraries.
        .systemLibrary(name: "CLibUV", pkgConfig: "libuv", providers: [.apt(["libuv1-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // hiredis (Debian's libhiredis-dev) is found without pkg-config: its .pc adds -D_FILE_OFFSET_BITS=64, a flag
        // SwiftPM refuses with a warning on every build; the shim includes <hiredis/…> from /usr/include instead.
        .systemLibrary(name: "CHiredis"),

        // The daemon, from the pure layers up.
        .target(name: "QuerydJSON", swiftSettings: strict),
        .target(name: "QuerydRPC", dependencies: ["QuerydJSON"], swiftSettings: strict),
        .target(name: "QuerydCore", dependencies: ["QuerydJSON", "QuerydRPC"], swiftSettings: strict),
        .target(
            name: "QuerydServer", dependencies: ["QuerydCore", "QuerydRPC", "QuerydJSON", logging],
            swiftSettings: strict, plugins: ["EmbedOpenRPC"]),
        .target(name: "QuerydTransport", dependencies: ["CLibUV", "CHiredis"], swiftSettings: strict),
        .target(
            name: "QuerydPersistence", dependencies: ["CSQLite", "QuerydCore", "QuerydJSON"], swiftSettings: strict),
        .executableTarget(
            name: "queryd",
            dependencies: [
                "QuerydServer", "QuerydTransport", "QuerydRPC", "QuerydJSON", "QuerydPersistence", "QuerydClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), logging,
            ],
            swiftSettings: strict),

        // protocol/openrpc.json, compiled into QuerydServer at build time (the document's one source).
        .plugin(name: "EmbedOpenRPC", capability: .buildTool(), dependencies: ["EmbedText"]),
        .executableTarget(name: "EmbedText", path: "Plugins/EmbedText", swiftSettings: strict),

        // The Swift client and its example.
        .target(
            name: "QuerydClient", dependencies: ["QuerydJSON", "QuerydRPC"], path: "clients/swift/Sources/QuerydClient",
            swiftSettings: strict),
        .executableTarget(
            name: "QuerydClientExample", dependencies: ["QuerydClient", "QuerydJSON"],
            path: "clients/swift/Examples/QuerydClientExample", swiftSettings: strict),

        // In-process benchmarks of the cache engine (run by bench/core.sh).
        .executableTarget(
            name: "QuerydCoreBench", dependencies: ["QuerydCore", "QuerydJSON"], path: "bench/CoreBench",
            swiftSettings: strict),

        // Tests, and the helpers they share (a seeded generator, test sockets, starting the built daemon).
        .target(
            name: "QuerydTestSupport", dependencies: ["QuerydJSON"], path: "Tests/QuerydTestSupport",
            swiftSettings: strict),
        .testTarget(name: "QuerydJSONTests", dependencies: ["QuerydJSON", "QuerydTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "QuerydRPCTests", dependencies: ["QuerydRPC", "QuerydJSON", "QuerydTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "QuerydCoreTests", dependencies: ["QuerydCore", "QuerydJSON", "QuerydTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "QuerydServerTests",
            dependencies: ["QuerydServer", "QuerydCore", "QuerydRPC", "QuerydJSON", logging],
            swiftSettings: strict),
        .testTarget(
            name: "QuerydTransportTests", dependencies: ["QuerydTransport", "CLibUV", "QuerydTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "QuerydPersistenceTests",
            dependencies: ["QuerydPersistence", "QuerydCore", "QuerydJSON", "CSQLite", "QuerydTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "QuerydIntegrationTests", dependencies: ["QuerydJSON", "QuerydTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "QuerydClientTests", dependencies: ["QuerydClient", "QuerydJSON", "QuerydRPC", "QuerydTestSupport"],
            path: "clients/swift/Tests/QuerydClientTests", swiftSettings: strict),
    ]
)
