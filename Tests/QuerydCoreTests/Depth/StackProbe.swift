// Measures how much stack a piece of code uses: it runs on a new thread whose stack is filled with
// a pattern beforehand, and the lowest overwritten byte marks the deepest point reached.

import Glibc

/// Runs code on a thread with a painted stack and reports the stack it used.
enum StackProbe {
    private static let paint: UInt8 = 0xA5

    /// The bytes of a `stackBytes` stack that `body` (and the thread around it) wrote to.
    static func bytesUsed(stackBytes: Int, _ body: @escaping () -> Void) -> Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var memory: UnsafeMutableRawPointer?
        precondition(posix_memalign(&memory, page, stackBytes) == 0, "cannot allocate a probe stack")
        // Safety: `memory` holds `stackBytes` bytes until the free below, after the thread is joined.
        let stack = memory!
        defer { free(stack) }
        stack.initializeMemory(as: UInt8.self, repeating: paint, count: stackBytes)
        run(onStack: stack, bytes: stackBytes, body)
        let bytes = stack.assumingMemoryBound(to: UInt8.self)
        var untouched = 0
        while untouched < stackBytes, bytes[untouched] == paint { untouched += 1 }
        return stackBytes - untouched
    }

    /// Stack bytes per level of `operation(depth)`, from the difference between two depths (which
    /// cancels the thread's own use and the frames around the recursion).
    static func bytesPerLevel(lowDepth: Int, highDepth: Int, _ operation: @escaping (Int) -> Void) -> Int {
        let stackBytes = 16 * 1024 * 1024
        let low = bytesUsed(stackBytes: stackBytes) { operation(lowDepth) }
        let high = bytesUsed(stackBytes: stackBytes) { operation(highDepth) }
        return (high - low + highDepth - lowDepth - 1) / (highDepth - lowDepth)
    }

    /// Runs `body` on a new thread using the given memory as its stack, and waits for it.
    static func run(onStack stack: UnsafeMutableRawPointer, bytes: Int, _ body: @escaping () -> Void) {
        run(body) { precondition(pthread_attr_setstack(&$0, stack, bytes) == 0, "cannot use the probe stack") }
    }

    /// Runs `body` on a new thread with a stack of `stackBytes` (allocated by the system), and waits.
    static func run(stackBytes: Int, _ body: @escaping () -> Void) {
        run(body) { precondition(pthread_attr_setstacksize(&$0, stackBytes) == 0, "cannot size the probe stack") }
    }

    private static func run(_ body: @escaping () -> Void, configure: (inout pthread_attr_t) -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        configure(&attributes)
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, &attributes,
            { context in
                // Safety: `context` is the retained `Work` passed below, released exactly once here.
                Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        precondition(created == 0, "cannot start a probe thread")
        pthread_join(thread, nil)
    }

    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
