import SimulationCore
import Synchronization
import Testing

@Suite("ParallelLoop")
struct ParallelLoopTests {
    @Test("every index runs exactly once, whatever the width", arguments: [nil, 1, 2, 3, 64] as [Int?])
    func everyIndexOnce(width: Int?) {
        let counts = Mutex([Int](repeating: 0, count: 1_000))
        ParallelLoop.run(iterations: 1_000, width: width) { index in counts.withLock { $0[index] += 1 } }
        #expect(counts.withLock { $0 } == [Int](repeating: 1, count: 1_000))
    }

    @Test("a width of one runs in order on the calling thread; no iterations run nothing")
    func serialWidth() {
        let order = Mutex([Int]())
        ParallelLoop.run(iterations: 5, width: 1) { index in order.withLock { $0.append(index) } }
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
        ParallelLoop.run(iterations: 0, width: 2) { _ in Issue.record("ran with no iterations") }
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
