// A SIGTERM that arrives at any moment after the socket appears is a clean shutdown (exit 0):
// the daemon watches its signals before it binds the socket. (A test that stopped the daemon
// right after it began listening was once killed by the default action of SIGTERM instead.)

import Glibc
import Testing

@Suite("Signals at start-up")
struct StartupSignalTests {
    @Test("SIGTERM sent the moment the socket file appears: exit 0 and no socket left, every time")
    func sigtermRightAfterTheSocketAppears() throws {
        for attempt in 0..<25 {
            let socket = DaemonProcess.temporarySocketPath()
            let logPath = socket.replacingSuffix(".sock", with: ".log")
            defer {
                unlink(logPath)
                unlink(socket)
            }
            let pid = try DaemonProcess.spawn(arguments: ["serve", "--socket", socket], logPath: logPath)
            var status: Int32 = 0
            let deadline = Clock.now + 10
            // Spin (no sleep) so the signal lands as close as possible to the bind.
            while access(socket, F_OK) != 0 {
                if waitpid(pid, &status, WNOHANG) == pid || Clock.now > deadline {
                    kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    throw IntegrationError("attempt \(attempt): the daemon never bound \(socket)")
                }
            }
            kill(pid, SIGTERM)
            waitpid(pid, &status, 0)
            #expect(ExitStatus(waitStatus: status) == .exited(0), "attempt \(attempt)")
            #expect(access(socket, F_OK) != 0, "attempt \(attempt): the socket was left behind")
        }
    }
}
