// The loop's inbox: messages posted from other threads arrive on the loop thread, all of them and in
// order; posts after the inbox closed are dropped; the inbox does not keep the loop alive.
import Dispatch
import Glibc
import Testing

@testable import QuerydTransport

@Suite struct LoopInboxTests {
    @Test func messagesPostedFromAnotherThreadArriveInOrderOnTheLoopThread() throws {
        let loop = try makeLoop()
        let loopThread = pthread_self()
        var received: [Int] = []
        var onLoopThread = true
        let inbox = LoopInbox<Int>(loop: loop) { message in
            received.append(message)
            onLoopThread = onLoopThread && pthread_equal(pthread_self(), loopThread) != 0
        }
        let sender = inbox.sender
        // The inbox does not keep the loop alive; a far timer does, as the listener does in the daemon.
        let keepAlive = LoopTimer(loop: loop)
        keepAlive.schedule(afterMilliseconds: 600_000) {}
        let done = DispatchSemaphore(value: 0)
        Thread.detach {
            for index in 0..<1000 { sender.post(index) }
            done.signal()
        }
        done.wait()
        spin(loop) { received.count == 1000 }
        #expect(received == Array(0..<1000))
        #expect(onLoopThread)
        finish(loop)
    }

    @Test func postsAfterCloseAreDroppedAndTheInboxDoesNotKeepTheLoopAlive() throws {
        let loop = try makeLoop()
        var received: [String] = []
        let inbox = LoopInbox<String>(loop: loop) { received.append($0) }
        // Nothing else is on the loop: run() returns at once although the inbox is open.
        loop.run()
        let keepAlive = LoopTimer(loop: loop)
        keepAlive.schedule(afterMilliseconds: 600_000) {}
        inbox.sender.post("before")
        runIterations(loop, 2)
        #expect(received == ["before"])
        inbox.close()
        inbox.sender.post("after")
        runIterations(loop, 2)
        #expect(received == ["before"])
        finish(loop)
    }
}

/// Runs a closure on a new detached POSIX thread.
private enum Thread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, box)
        precondition(result == 0, "pthread_create failed")
        pthread_detach(thread)
    }
}
