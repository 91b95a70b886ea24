import SimulationCore
import Testing

@Suite("EventQueue")
struct EventQueueTests {
    private static func at(_ seconds: Int64) -> SimInstant { SimInstant(nanosecondsSinceEpoch: seconds * 1_000_000_000) }

    private static func drain<Payload>(_ queue: inout EventQueue<Payload>) -> [Payload] {
        var out: [Payload] = []
        while let entry = queue.popNext() { out.append(entry.payload) }
        return out
    }

    @Test("items come out in time order whatever order they went in")
    func timeOrder() {
        var queue = EventQueue<String>()
        queue.push("c", at: Self.at(30))
        queue.push("a", at: Self.at(10))
        queue.push("d", at: Self.at(40))
        queue.push("b", at: Self.at(20))
        #expect(queue.count == 4)
        #expect(queue.next?.payload == "a")
        #expect(Self.drain(&queue) == ["a", "b", "c", "d"])
        #expect(queue.isEmpty && queue.popNext() == nil)
    }

    @Test("equal time and priority keep the order they were pushed in")
    func tiesAreFirstInFirstOut() {
        var queue = EventQueue<Int>()
        for value in 0..<50 { queue.push(value, at: Self.at(value % 2 == 0 ? 5 : 3)) }
        let odd = (0..<50).filter { $0 % 2 == 1 }
        let even = (0..<50).filter { $0 % 2 == 0 }
        #expect(Self.drain(&queue) == odd + even)
    }

    @Test("at one instant lower priority comes first; time still beats priority")
    func priorities() {
        var queue = EventQueue<String>()
        queue.push("fix", at: Self.at(1), priority: 3)
        queue.push("timer", at: Self.at(1), priority: 1)
        queue.push("script", at: Self.at(1), priority: 0)
        queue.push("late script", at: Self.at(2), priority: 0)
        queue.push("motion", at: Self.at(1), priority: 2)
        queue.push("second timer", at: Self.at(1), priority: 1)
        queue.push("early fix", at: Self.at(0), priority: 3)
        #expect(
            Self.drain(&queue) == ["early fix", "script", "timer", "second timer", "motion", "fix", "late script"])
    }

    @Test("pushes between pops keep the order; removeAll empties and the queue is reusable")
    func interleaved() {
        var queue = EventQueue<Int>(reservingCapacity: 8)
        queue.push(1, at: Self.at(10))
        queue.push(2, at: Self.at(5))
        #expect(queue.popNext()?.payload == 2)
        queue.push(3, at: Self.at(7))
        queue.push(4, at: Self.at(10))
        #expect(queue.popNext().map { ($0.time, $0.payload) } ?? (Self.at(0), 0) == (Self.at(7), 3))
        queue.removeAll()
        #expect(queue.isEmpty)
        queue.push(5, at: Self.at(1))
        #expect(Self.drain(&queue) == [5])
    }

    @Test("many random pushes and pops match a sorted reference", arguments: [1, 2, 3, 4] as [UInt64])
    func randomAgainstReference(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var queue = EventQueue<Int>()
        // The reference: (time, priority, push number, payload), kept sorted by the first three.
        var reference: [(time: Int64, priority: Int, order: Int, payload: Int)] = []
        var pushed = 0
        for _ in 0..<5_000 {
            if random.next() % 3 != 0 || reference.isEmpty {
                // Few distinct times and priorities, so ties are common.
                let time = Int64(random.next() % 40)
                let priority = Int(random.next() % 4)
                queue.push(pushed, at: Self.at(time), priority: priority)
                reference.append((time, priority, pushed, pushed))
                pushed += 1
            } else {
                let best = reference.indices.min {
                    (reference[$0].time, reference[$0].priority, reference[$0].order)
                        < (reference[$1].time, reference[$1].priority, reference[$1].order)
                }!
                let expected = reference.remove(at: best)
                let popped = queue.popNext()
                #expect(popped?.payload == expected.payload)
                #expect(popped?.time == Self.at(expected.time))
                #expect(popped?.priority == expected.priority)
            }
            #expect(queue.count == reference.count)
        }
        reference.sort { ($0.time, $0.priority, $0.order) < ($1.time, $1.priority, $1.order) }
        #expect(Self.drain(&queue) == reference.map(\.payload))
    }
}
