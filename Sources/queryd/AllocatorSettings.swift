// The heap settings `queryd serve` runs with. glibc returns the free memory at the top of its heap
// to the system whenever more than 128 KB is free there (`brk` down), and takes it back on the next
// allocations (`brk` up, then a page fault per page touched). A daemon that frees and allocates
// reply lines of tens of kilobytes every loop turn went down and up thousands of times a second:
// 3,400 `brk` calls in 2 s of `query.get` at 50 connections × 16 in flight, and about half of the
// server's CPU time per request (BENCHMARKS §13). With these settings the top of the heap is kept;
// memory still goes back after a large removal, where the engine calls `malloc_trim` itself.

#if canImport(Glibc)
    import Glibc
#endif

/// glibc's `mallopt` settings for a long-running server.
enum AllocatorSettings {
    /// Free memory kept at the top of the heap before glibc returns it on its own (`M_TRIM_THRESHOLD`).
    static let keptTopBytes: Int32 = 256 << 20
    /// Extra memory asked for each time the heap grows, so growth takes few `brk` calls (`M_TOP_PAD`).
    static let growthPadBytes: Int32 = 16 << 20
    /// Allocations from this size on get their own mapping (`M_MMAP_THRESHOLD`): glibc's own
    /// upper limit for the threshold it otherwise adjusts by itself, which setting the others stops.
    static let ownMappingBytes: Int32 = 32 << 20

    /// Applies the settings (glibc only; elsewhere nothing). Call once, before serving.
    static func applyForServing() {
        #if canImport(Glibc)
            // `mallopt` and its parameter numbers are declared in <malloc.h>, which the Glibc module
            // leaves out: the function is found by name, the numbers are glibc's (M_TRIM_THRESHOLD
            // -1, M_TOP_PAD -2, M_MMAP_THRESHOLD -3).
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            _ = mallopt(-1, keptTopBytes)
            _ = mallopt(-2, growthPadBytes)
            _ = mallopt(-3, ownMappingBytes)
        #endif
    }
}
