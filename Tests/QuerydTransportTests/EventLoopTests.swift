// The loop itself: timers, the before-sleep hook, signals, stop, and closing everything it created.
import CLibUV
import Glibc
import Testing

@testable import QuerydTransport

@Suite struct EventLoopTests {
    @Test func timerFiresOnceAfterItsDelay() throws {
        let loop = try makeLoop()
        let timer = LoopTimer(loop: loop)
        let scheduledAt = loop.nowMilliseconds
        var firedAt: [UInt64] = []
        timer.schedule(afterMilliseconds: 5) { firedAt.append(loop.nowMilliseconds) }
        #expect(timer.isScheduled)
        loop.run()
        #expect(firedAt.count == 1)
        #expect(firedAt[0] >= scheduledAt + 5)
        #expect(!timer.isScheduled)
        finish(loop)
    }

    @Test func schedulingAgainReplacesTheDeadline() throws {
        let loop = try makeLoop()
        let timer = LoopTimer(loop: loop)
        var fired: [String] = []
        timer.schedule(afterMilliseconds: 600_000) { fired.append("late") }
        timer.schedule(afterMilliseconds: 1) { fired.append("soon") }
        loop.run()
        #expect(fired == ["soon"])
        #expect(!timer.isScheduled)
        timer.schedule(afterMilliseconds: 1) {
            fired.append("again")
            timer.schedule(afterMilliseconds: 1) { fired.append("from inside") }
        }
        loop.run()
        #expect(fired == ["soon", "again", "from inside"])
        finish(loop)
    }

    @Test func cancelledTimerNeitherFiresNorKeepsTheLoopAlive() throws {
        let loop = try makeLoop()
        let timer = LoopTimer(loop: loop)
        var fired = false
        timer.schedule(afterMilliseconds: 1) { fired = true }
        timer.cancel()
        #expect(!timer.isScheduled)
        loop.run()
        #expect(!fired)
        timer.close()
        timer.schedule(afterMilliseconds: 1) { fired = true }
        #expect(!timer.isScheduled)
        loop.run()
        #expect(!fired)
        finish(loop)
    }

    @Test func stopEndsRunWhileHandlesRemain() throws {
        let loop = try makeLoop()
        let stopper = LoopTimer(loop: loop)
        let far = LoopTimer(loop: loop)
        far.schedule(afterMilliseconds: 600_000) {}
        stopper.schedule(afterMilliseconds: 1) { loop.stop() }
        loop.run()
        #expect(far.isScheduled)
        #expect(liveHandleCount(loop) == 2)
        finish(loop)
    }

    @Test func beforeSleepBodiesRunOncePerIterationInOrder() throws {
        let loop = try makeLoop()
        var calls: [String] = []
        loop.onBeforeSleep { calls.append("a") }
        loop.onBeforeSleep { calls.append("b") }
        let timer = LoopTimer(loop: loop)
        timer.schedule(afterMilliseconds: 600_000) {}
        runIterations(loop, 3)
        #expect(calls == ["a", "b", "a", "b", "a", "b"])
        timer.cancel()
        calls = []
        loop.run()
        #expect(calls.isEmpty)
        finish(loop)
    }

    @Test func signalHandlerRunsOnTheLoop() throws {
        let loop = try makeLoop()
        var received = 0
        #expect(loop.onSignal(SIGUSR2) { received += 1 } == nil)
        // Signal watchers do not keep the loop alive: with nothing else, run() returns without waiting.
        loop.run()
        #expect(received == 0)
        let keepAlive = LoopTimer(loop: loop)
        keepAlive.schedule(afterMilliseconds: 600_000) {}
        // kill, not raise: the test thread may block signals; the kernel picks a thread that does not.
        #expect(kill(getpid(), SIGUSR2) == 0)
        spin(loop) { received == 1 }
        #expect(received == 1)
        let failure = loop.onSignal(0) {}
        #expect(failure?.code == UV_EINVAL.rawValue)
        finish(loop)
    }

    @Test func closeClosesEveryHandleAndNotifiesConnections() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let server = try TestServer.echo(loop: loop, path: path)
        let (client, recorder) = try connectRecordedClient(loop, path: path)
        client.startReading()
        client.write(Array("pending\n".utf8))
        spin(loop) { recorder.received.count == 8 }
        LoopTimer(loop: loop).schedule(afterMilliseconds: 600_000) {}
        loop.onBeforeSleep {}
        loop.onSignal(SIGUSR1) {}
        #expect(liveHandleCount(loop) == 6)
        loop.close()
        #expect(loop.isClosed)
        #expect(loop.closeError == nil)
        #expect(recorder.events == [.read(8), .close])
        #expect(server.recorders.map(\.closeCount) == [1])
        var info = stat()
        #expect(lstat(path, &info) == -1)
        loop.close()
        #expect(loop.isClosed)
    }

    @Test func transportErrorDescribesTheFailure() {
        let error = TransportError(code: UV_ECONNREFUSED.rawValue, context: "connect /tmp/x.sock")
        #expect(error.name == "ECONNREFUSED")
        #expect(error.message == "connection refused")
        #expect(error.description == "connect /tmp/x.sock: ECONNREFUSED (connection refused)")
        #expect(TransportError(errno: EACCES, context: "chmod").code == UV_EACCES.rawValue)
        #expect(throws: TransportError.self) { try uvCheck(UV_EBADF.rawValue, "op") }
        #expect((try? uvCheck(3, "op")) == 3)
    }
}
