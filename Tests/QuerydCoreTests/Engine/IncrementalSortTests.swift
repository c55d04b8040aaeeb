// The incremental merge sort of the sweeps: any budget gives the sorted, stable order, and no
// step moves more elements than its budget.

import Testing

@testable import QuerydCore

@Suite struct IncrementalSortTests {
    @Test(arguments: [1, 3, 16, 1000])
    func stepsOfAnyBudgetSortStably(budget: Int) {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 7, 64, 1001] {
            let items = (0..<count).map { index in (value: Int.random(in: 0..<50, using: &generator), index: index) }
            var sort = IncrementalSort(items) { $0.value < $1.value }
            var steps = 0
            while !sort.isDone {
                #expect(sort.step(budget: budget) <= budget)
                steps += 1
            }
            let expected = items.sorted { $0.value != $1.value ? $0.value < $1.value : $0.index < $1.index }
            #expect(sort.items.map(\.index) == expected.map(\.index))
            if count > 1 { #expect(steps >= (count - 1) / budget) }
        }
    }
}
