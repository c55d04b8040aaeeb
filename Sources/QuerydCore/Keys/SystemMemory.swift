// Giving free heap memory back to the system. glibc keeps freed memory in its arenas for reuse and
// returns little of it by itself: after millions of queries are removed the daemon would go on
// holding their pages. `malloc_trim` releases every whole free page of every arena.

#if canImport(Glibc)
    import Glibc
#endif

/// The process's heap, as far as returning memory is concerned.
enum SystemMemory {
    /// Asks the allocator to return its free pages to the system (`malloc_trim(0)` under glibc;
    /// nothing elsewhere). It walks the whole heap, so call it after large removals only, once the
    /// removed objects have been freed.
    static func releaseFreePages() {
        #if canImport(Glibc)
            // `malloc_trim` is declared in <malloc.h>, which the Glibc module leaves out: found by name.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
            typealias MallocTrim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
