// The outbox's table of pending push places answers as a dictionary would, across growth, dropped
// places taken again, and emptying between flushes.

import Testing

@testable import QuerydServer

@Suite struct PushPlacesTests {
    @Test func answersAsADictionaryAcrossGrowthDropsAndClears() {
        var table = PushPlaces()
        var model: [Int: PushPlaces.Place] = [:]
        // Deterministic pseudo-random keys and operations (a linear congruential generator).
        var seed: UInt64 = 12345
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for round in 0..<40 {
            let keys = round % 3 == 0 ? 3000 : 200
            for step in 0..<4000 {
                let key = next(keys) - (round % 5 == 0 ? 100 : 0)
                let place = PushPlaces.Place(held: step % 7 == 0, index: step)
                switch next(10) {
                case 0..<6:
                    let found = table.place(of: key, recordingIfNone: place)
                    #expect(found == model[key])
                    if found == nil { model[key] = place }
                case 6..<8:
                    #expect(table.remove(key) == model.removeValue(forKey: key))
                default:
                    table.set(place, for: key)
                    model[key] = place
                }
            }
            table.removeAll()
            model.removeAll()
            #expect(table.isEmpty)
            #expect(table.remove(1) == nil)
        }
    }
}
