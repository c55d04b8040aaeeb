// The socket path resolution rules that the daemon, its shell commands and the Swift client share.

import QuerydRPC
import Testing

@Suite struct SocketPathTests {
    @Test func resolutionFollowsTheContractOrder() {
        let all = ["QUERYD_SOCKET": "/run/q.sock", "XDG_RUNTIME_DIR": "/run/user/7"]
        #expect(SocketPath.resolve(explicit: "/x/explicit.sock", environment: all, userID: 7) == "/x/explicit.sock")
        #expect(SocketPath.resolve(explicit: nil, environment: all, userID: 7) == "/run/q.sock")
        #expect(SocketPath.resolve(explicit: "", environment: all, userID: 7) == "/run/q.sock")
        #expect(
            SocketPath.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/7"], userID: 7)
                == "/run/user/7/queryd.sock")
        #expect(
            SocketPath.resolve(
                explicit: nil, environment: ["QUERYD_SOCKET": "", "XDG_RUNTIME_DIR": "/run/u/"], userID: 7)
                == "/run/u/queryd.sock")
        #expect(SocketPath.resolve(explicit: nil, environment: [:], userID: 1000) == "/tmp/queryd-1000.sock")
        #expect(
            SocketPath.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": "relative/dir"], userID: 1000)
                == "/tmp/queryd-1000.sock")
        #expect(
            SocketPath.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": ""], userID: 0) == "/tmp/queryd-0.sock")
    }

    @Test func onlyTheTwoVariablesAreConsulted() {
        #expect(SocketPath.variableNames == ["QUERYD_SOCKET", "XDG_RUNTIME_DIR"])
        #expect(SocketPath.resolve(explicit: nil, environment: ["HOME": "/home/u"], userID: 5) == "/tmp/queryd-5.sock")
    }
}
