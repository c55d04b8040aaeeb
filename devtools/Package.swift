// swift-tools-version: 6.2
// queryd-devtools: a web page over a running queryd daemon (its queries, fetchers, graphs and actions) and a
// Prometheus `/metrics` endpoint. A package of its own so that the daemon's build carries no HTTP stack.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "queryd-devtools",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "queryd-devtools", targets: ["queryd-devtools"])],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "QuerydDevtools",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("Page")],
            swiftSettings: strict),
        .executableTarget(
            name: "queryd-devtools",
            dependencies: ["QuerydDevtools", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict),
        .testTarget(name: "QuerydDevtoolsTests", dependencies: ["QuerydDevtools"], swiftSettings: strict),
    ]
)
