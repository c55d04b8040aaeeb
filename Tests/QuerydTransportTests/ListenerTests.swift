// The listening socket: private mode, sun_path limit, inode-checked unlink, and what SocketProbe sees.
import CLibUV
import Glibc
import Testing

@testable import QuerydTransport

/// `lstat` of `path`, or nil when it does not exist.
private func fileStatus(_ path: String) -> stat? {
    var info = stat()
    return lstat(path, &info) == 0 ? info : nil
}

/// Creates a regular file at `path`.
private func createRegularFile(_ path: String) {
    let descriptor = open(path, O_CREAT | O_WRONLY | O_EXCL, 0o600)
    Glibc.close(descriptor)
}

@Suite struct ListenerTests {
    @Test func socketFileIsPrivate() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let listener = try UnixListener(loop: loop, path: path)
        let info = try #require(fileStatus(path))
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o7777 == 0o600)
        #expect(info.st_uid == getuid())
        #expect(listener.path == path)
        finish(loop)
        #expect(fileStatus(path) == nil)
    }

    @Test func pathLongerThanSunPathIsRefused() throws {
        let loop = try makeLoop()
        let prefix = "/tmp/qdt-\(getpid())-"
        let longest = prefix + String(repeating: "a", count: 107 - prefix.utf8.count)
        let tooLong = longest + "b"
        #expect(longest.utf8.count == 107)
        do {
            _ = try UnixListener(loop: loop, path: tooLong)
            Issue.record("a 108-byte path was accepted")
        } catch {
            #expect(error.code == UV_ENAMETOOLONG.rawValue)
            #expect(error.context.contains("108 bytes"))
        }
        #expect(fileStatus(tooLong) == nil)
        let listener = try UnixListener(loop: loop, path: longest)
        #expect(fileStatus(longest).map { $0.st_mode & S_IFMT } == S_IFSOCK)
        listener.close(unlinkSocket: true)
        #expect(fileStatus(longest) == nil)
        #expect(throws: TransportError.self) { try UnixListener(loop: loop, path: "") }
        finish(loop)
    }

    @Test func closeUnlinksOnlyOnRequestAndOnlyOurInode() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        try UnixListener(loop: loop, path: path).close(unlinkSocket: true)
        #expect(fileStatus(path) == nil)

        try UnixListener(loop: loop, path: path).close(unlinkSocket: false)
        #expect(fileStatus(path).map { $0.st_mode & S_IFMT } == S_IFSOCK)
        unlink(path)

        let replaced = try UnixListener(loop: loop, path: path)
        unlink(path)
        createRegularFile(path)
        replaced.close(unlinkSocket: true)
        #expect(fileStatus(path).map { $0.st_mode & S_IFMT } == S_IFREG)
        unlink(path)
        finish(loop)
    }

    @Test func bindingAnOccupiedPathFailsAndLeavesItAlone() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        createRegularFile(path)
        defer { unlink(path) }
        do {
            _ = try UnixListener(loop: loop, path: path)
            Issue.record("bound over an existing file")
        } catch {
            #expect(error.code == UV_EADDRINUSE.rawValue)
            #expect(error.description.hasPrefix("bind \(path): EADDRINUSE"))
        }
        #expect(fileStatus(path).map { $0.st_mode & S_IFMT } == S_IFREG)
        finish(loop)
    }

    @Test func probeClassifiesWhatIsAtThePath() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        #expect(SocketProbe.probe(path: path) == .absent)

        let listener = try UnixListener(loop: loop, path: path)
        #expect(SocketProbe.probe(path: path) == .live)
        listener.close(unlinkSocket: false)
        runIterations(loop, 3)
        #expect(SocketProbe.probe(path: path) == .stale)

        let link = temporarySocketPath()
        #expect(symlink(path, link) == 0)
        #expect(SocketProbe.probe(path: link) == .symlink)
        unlink(link)
        unlink(path)

        createRegularFile(path)
        #expect(SocketProbe.probe(path: path) == .notASocket)
        unlink(path)
        #expect(mkdir(path, 0o700) == 0)
        #expect(SocketProbe.probe(path: path) == .notASocket)
        rmdir(path)
        finish(loop)
    }
}
