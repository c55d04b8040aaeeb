// Apple platforms only: drives the client's focus from the app's active state and the daemon's online state
// from the network path, as TanStack's focusManager and onlineManager do in a browser. Compiled out elsewhere.

#if canImport(Network) && (os(macOS) || os(iOS) || os(tvOS) || os(visionOS))
    import Foundation
    import Network
    #if os(macOS)
        import AppKit
    #else
        import UIKit
    #endif

    /// Follows the app's lifecycle for a ``QueryClient``: becoming active sends `setFocused(true)`, resigning
    /// sends `setFocused(false)`, and network path changes send `setOnline`, in the order they happen. Keep it
    /// alive as long as the client (for example in the SwiftUI `App`), and call ``stop()`` when done.
    ///
    /// ```swift
    /// @main struct TodoApp: App {
    ///     @State private var lifecycle = AppLifecycle(client: client)
    ///     var body: some Scene { WindowGroup { TodoList() } }
    /// }
    /// ```
    @MainActor
    public final class AppLifecycle {
        /// One change to forward.
        private enum Change: Sendable {
            case focused(Bool)
            case online(Bool)
        }

        private var observers: [any NSObjectProtocol] = []
        private let monitor = NWPathMonitor()
        private let changes: AsyncStream<Change>.Continuation

        /// Starts following the app's active state and the network path.
        public init(client: QueryClient) {
            let (stream, changes) = AsyncStream.makeStream(of: Change.self)
            self.changes = changes
            Task {
                for await change in stream {
                    switch change {
                    case .focused(let focused): try? await client.setFocused(focused)
                    case .online(let online): try? await client.setOnline(online)
                    }
                }
            }
            #if os(macOS)
                let active = NSApplication.didBecomeActiveNotification
                let inactive = NSApplication.didResignActiveNotification
            #else
                let active = UIApplication.didBecomeActiveNotification
                let inactive = UIApplication.willResignActiveNotification
            #endif
            for (name, focused) in [(active, true), (inactive, false)] {
                observers.append(
                    NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in
                        changes.yield(.focused(focused))
                    })
            }
            monitor.pathUpdateHandler = { path in changes.yield(.online(path.status == .satisfied)) }
            monitor.start(queue: DispatchQueue(label: "queryd-client-network-path"))
        }

        /// Stops following.
        public func stop() {
            for observer in observers { NotificationCenter.default.removeObserver(observer) }
            observers.removeAll()
            monitor.cancel()
            changes.finish()
        }
    }
#endif
