import SimulationCore
import Synchronization
import Testing

@Suite("ParallelLoop")
struct ParallelLoopTests {
    @Test("map runs every index exactly once and returns results in index order", arguments: [nil, 1, 2, 3, 64] as [Int?])
    func mapInOrder(width: Int?) {
        let calls = Atomic<Int>(0)
        let squares = ParallelLoop.map(iterations: 1_000, width: width) { index in
            calls.add(1, ordering: .relaxed)
            return index * index
        }
        #expect(squares == (0..<1_000).map { $0 * $0 })
        #expect(calls.load(ordering: .relaxed) == 1_000)
    }

    @Test("a width of one runs in order on the calling thread; no iterations run nothing")
    func serialWidth() {
        let next = Atomic<Int>(0)
        let inOrder = ParallelLoop.map(iterations: 5, width: 1) { index in
            next.add(1, ordering: .relaxed).oldValue == index
        }
        #expect(inOrder == [true, true, true, true, true])
        ParallelLoop.run(iterations: 0, width: 2) { _ in Issue.record("ran with no iterations") }
        #expect(ParallelLoop.map(iterations: 0) { $0 }.isEmpty)
    }

    @Test("never more workers at once than the width")
    func widthBound() {
        let running = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        ParallelLoop.run(iterations: 200, width: 2) { _ in
            let now = running.add(1, ordering: .relaxed).newValue
            _ = peak.max(now, ordering: .relaxed)
            for _ in 0..<2_000 { _ = running.load(ordering: .relaxed) }
            running.subtract(1, ordering: .relaxed)
        }
        #expect(peak.load(ordering: .relaxed) <= 2)
    }
}
