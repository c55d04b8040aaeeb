// Output staging for the canonical encoder: the many small pieces of an encoding (quotes,
// separators, names, literals, digits) gather in a small buffer in stack memory and reach the
// output array in a few large appends instead of one append each.

/// Where the encoder's bytes go: an array of bytes, or `StagedBytes` in front of one.
protocol ByteOutput {
    mutating func put(_ byte: UInt8)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension ByteOutput {
    /// Puts the bytes of `literal`.
    @inline(__always)
    mutating func put(_ literal: StaticString) {
        put(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}

extension Array: ByteOutput where Element == UInt8 {
    @inline(__always)
    mutating func put(_ byte: UInt8) { append(byte) }

    @inline(__always)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}

/// Bytes gathered in `staging` (memory the caller provides) and appended to `output` whenever it
/// fills and at `flush()`.
struct StagedBytes: ByteOutput {
    /// The room a caller gives the staging buffer (on the stack, see `withStaging`).
    static let stagingCapacity = 512

    var output: [UInt8]
    private let staging: UnsafeMutablePointer<UInt8>
    // Invariant: staging[0..<count] holds the bytes put since the last flush, and
    // count <= stagingCapacity, the room at `staging`.
    private var count = 0

    /// Calls `body` with bytes staged in front of `buffer`, flushed when `body` returns.
    static func withStaging(in buffer: inout [UInt8], _ body: (inout StagedBytes) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stagingCapacity) { room in
            var staged = StagedBytes(output: [], staging: room.baseAddress!)
            swap(&staged.output, &buffer)
            body(&staged)
            staged.flush()
            swap(&staged.output, &buffer)
        }
    }

    private init(output: [UInt8], staging: UnsafeMutablePointer<UInt8>) {
        self.output = output
        self.staging = staging
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        if count == Self.stagingCapacity { flush() }
        (staging + count).initialize(to: byte)
        count &+= 1
    }

    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count > Self.stagingCapacity &- count {
            flush()
            if bytes.count > Self.stagingCapacity {
                output.append(contentsOf: bytes)
                return
            }
        }
        guard let source = bytes.baseAddress else { return }
        (staging + count).initialize(from: source, count: bytes.count)
        count &+= bytes.count
    }

    /// Appends the staged bytes to `output` and empties the staging buffer.
    mutating func flush() {
        output.append(contentsOf: UnsafeBufferPointer(start: staging, count: count))
        count = 0
    }
}
