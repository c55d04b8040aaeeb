// swift-tools-version: 6.0
// queryd: TanStack Query's cache as a daemon, shared over a Unix socket with JSON-RPC 2.0.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "queryd",
    products: [
        .executable(name: "queryd", targets: ["queryd"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(name: "CLibUV", pkgConfig: "libuv", providers: [.apt(["libuv1-dev"])]),
        .target(name: "QuerydJSON", swiftSettings: strict),
        .target(name: "QuerydRPC", dependencies: ["QuerydJSON"], swiftSettings: strict),
        .target(name: "QuerydCore", dependencies: ["QuerydJSON"], swiftSettings: strict),
        .target(
            name: "QuerydServer",
            dependencies: ["QuerydCore", "QuerydRPC", "QuerydJSON", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        .target(name: "QuerydTransport", dependencies: ["CLibUV"], swiftSettings: strict),
        .executableTarget(
            name: "queryd",
            dependencies: [
                "QuerydServer", "QuerydTransport", "QuerydRPC", "QuerydJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(name: "QuerydJSONTests", dependencies: ["QuerydJSON"], swiftSettings: strict),
        .testTarget(name: "QuerydRPCTests", dependencies: ["QuerydRPC", "QuerydJSON"], swiftSettings: strict),
        .testTarget(name: "QuerydCoreTests", dependencies: ["QuerydCore", "QuerydJSON"], swiftSettings: strict),
        .testTarget(
            name: "QuerydServerTests",
            dependencies: [
                "QuerydServer", "QuerydCore", "QuerydRPC", "QuerydJSON", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(name: "QuerydTransportTests", dependencies: ["QuerydTransport", "CLibUV"], swiftSettings: strict),
        .testTarget(
            name: "QuerydIntegrationTests", dependencies: ["QuerydJSON"],
            resources: [], swiftSettings: strict),
    ]
)
