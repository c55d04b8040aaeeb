// Tests of the slot memory's pages: a large buffer is not written when made, and a migration gives
// back the pages of the previous buffer's references as it passes them
// (`SlotBuffer.releaseReferencePages`), so freeing a drained buffer of millions of slots is not one
// long step, while the elements all arrive in the new buffer.

import Testing

@testable import QuerydCore

#if canImport(Glibc)
    import Glibc
#endif

private final class Token {}

@Suite struct SlotBufferPagesTests {
    /// Resident pages among the whole pages of `bytes` bytes from `start` (`mincore`).
    private func residentPages(_ start: UnsafeMutableRawPointer, bytes: Int) -> (resident: Int, pages: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let first = (Int(bitPattern: start) + page - 1) / page * page
        let end = (Int(bitPattern: start) + bytes) / page * page
        guard end > first, let address = UnsafeMutableRawPointer(bitPattern: first) else { return (0, 0) }
        let pages = (end - first) / page
        var vector = [UInt8](repeating: 0, count: pages)
        let result = mincore(address, end - first, &vector)
        #expect(result == 0)
        return (vector.filter { $0 & 1 == 1 }.count, pages)
    }

    /// Expects the first `passed` of the `written` bytes from `start` to have gone back to the system
    /// in whole chunks (from the first chunk boundary to the start of the chunk the migration is
    /// in; at least `leastPages` pages) and the bytes past the migration's chunk to be untouched.
    private func expectReleased(_ start: UnsafeMutableRawPointer, passed: Int, of written: Int, leastPages: Int) {
        let chunk = SlotBuffer<Token>.releaseChunk
        let base = Int(bitPattern: start)
        let firstBoundary = (base + chunk - 1) / chunk * chunk
        let lastBoundary = (base + passed) / chunk * chunk
        let released = residentPages(start + (firstBoundary - base), bytes: lastBoundary - firstBoundary)
        #expect(released.pages > leastPages)
        #expect(released.resident == 0)
        let ahead = residentPages(start + passed + chunk, bytes: written - passed - chunk)
        #expect(ahead.pages > 20)
        #expect(ahead.resident == ahead.pages)
    }

    @Test func aMigrationReleasesThePagesOfTheSlotsItPassed() {
        let tokens = (0..<200_000).map { _ in Token() }
        let source = SlotBuffer<Token>(capacity: 1 << 18, controls: false)
        for (index, token) in tokens.enumerated() { source.references[index] = .passRetained(token) }
        source.count = tokens.count
        let stride = MemoryLayout<Unmanaged<Token>?>.stride
        let written = UnsafeMutableRawPointer(source.references)
        let before = residentPages(written, bytes: tokens.count * stride)
        #expect(before.resident == before.pages)

        let target = SlotBuffer<Token>.migration(
            from: source, capacity: 1 << 19, count: tokens.count, controls: false, by: ObjectSet<Token>.self)
        for _ in 0..<5_000 { target.migrationStep(by: ObjectSet<Token>.self) }
        let passed = target.migrated * stride
        #expect(passed > 1_200_000)
        expectReleased(written, passed: passed, of: tokens.count * stride, leastPages: 250)

        while target.previous != nil { target.migrationStep(by: ObjectSet<Token>.self) }
        #expect(target.count == tokens.count)
        var moved = Set<ObjectIdentifier>()
        for index in 0..<target.capacity {
            if let element = target.references[index] { moved.insert(ObjectIdentifier(element.takeUnretainedValue())) }
        }
        #expect(moved == Set(tokens.map(ObjectIdentifier.init)))
    }

    @Test func aTableMigrationReleasesThePagesOfTheHashWordsItPassed() {
        let elements = (0..<200_000).map { KeyedElement($0) }
        let source = SlotBuffer<KeyedElement>(capacity: 1 << 18, controls: true)
        let hashes = source.hashes
        for (index, element) in elements.enumerated() {
            source.references[index] = .passRetained(element)
            source.controls![index] = 0x80
            hashes[index] = UInt32(truncatingIfNeeded: index &* 0x9E37_79B9)
        }
        source.count = elements.count
        let stride = MemoryLayout<UInt32>.stride
        let written = UnsafeMutableRawPointer(hashes)
        let before = residentPages(written, bytes: elements.count * stride)
        #expect(before.resident == before.pages)

        let target = SlotBuffer<KeyedElement>.migration(
            from: source, capacity: 1 << 19, count: elements.count, controls: true, by: QueryTable<KeyedElement>.self)
        for _ in 0..<5_000 { target.migrationStep(by: QueryTable<KeyedElement>.self) }
        expectReleased(written, passed: target.migrated * stride, of: elements.count * stride, leastPages: 100)
        // Every element arrived, each in the slot its hash word names.
        while target.previous != nil { target.migrationStep(by: QueryTable<KeyedElement>.self) }
        #expect(target.count == elements.count)
        var arrived = Set<ObjectIdentifier>()
        for index in 0..<target.capacity {
            guard let element = target.references[index] else { continue }
            arrived.insert(ObjectIdentifier(element.takeUnretainedValue()))
            #expect(target.hashes[index] == UInt32(truncatingIfNeeded: element.takeUnretainedValue().id &* 0x9E37_79B9))
        }
        #expect(arrived == Set(elements.map(ObjectIdentifier.init)))
    }

    @Test func aLargeTableFindsEveryElementWhileItsDrainedPagesGoBack() {
        var table = QueryTable<KeyedElement>()
        // Past the growth from 131,072 slots (1 MB of references), then halfway through its migration.
        let elements = table.insert(from: 0) {
            $0.capacity > 150_000 && $0.isMigrating && $0.elementsToMigrate < $0.count / 3
        }
        for element in elements where table[element.key] !== element { Issue.record("lookup missed \(element.id)") }
        for element in elements where element.id % 2 == 0 {
            let removed = table.remove(element)
            #expect(removed)
        }
        for element in elements where element.id % 2 == 1 && table[element.key] !== element {
            Issue.record("lookup missed \(element.id) after removals")
        }
        var seen = 0
        table.forEach { _ in seen += 1 }
        #expect(seen == elements.count / 2)
        #expect(table.count == elements.count / 2)
    }

    @Test func aLargeBufferIsNotWrittenWhenMade() {
        // Once glibc has freed a large mapped block it serves blocks up to that size from its heap,
        // where `calloc` clears them with `memset`, touching every page at once.
        free(malloc(24 << 20))
        let capacity = 1 << 20
        let buffer = SlotBuffer<Token>(capacity: capacity, controls: true)
        let references = residentPages(UnsafeMutableRawPointer(buffer.references), bytes: capacity * 8)
        #expect(references.pages > 2_000)
        #expect(references.resident == 0)
        let controls = residentPages(UnsafeMutableRawPointer(buffer.controls!), bytes: capacity)
        #expect(controls.resident == 0)
        let hashes = residentPages(UnsafeMutableRawPointer(buffer.hashes), bytes: capacity * 4)
        #expect(hashes.pages > 1_000)
        #expect(hashes.resident == 0)
    }
}
