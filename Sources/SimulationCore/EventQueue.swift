/// The virtual run loop's queue: payloads due at instants, taken out in order of time, then
/// priority (lower first), then the order they were pushed in.
///
/// A binary min-heap in one array, so `push` and `popNext` cost O(log n) and, once the array
/// has grown to the largest number of pending items, neither allocates. The sequence number
/// that breaks ties makes the order total: a replay built on this queue is deterministic, and
/// two items with the same time and priority come out first in, first out.
///
/// Replays, the permission session and test timelines all use it; a loop pops the next item,
/// sets its clock to the item's time and handles the payload, which may push more items.
public struct EventQueue<Payload> {
    /// One queued item with the key it is ordered by.
    public struct Entry {
        /// When the item is due.
        public var time: SimInstant
        /// Orders items due at the same instant, lower first.
        public var priority: Int
        /// Push order, which orders items with the same time and priority.
        public var sequence: UInt64
        /// What was queued.
        public var payload: Payload

        @inlinable
        init(time: SimInstant, priority: Int, sequence: UInt64, payload: Payload) {
            self.time = time
            self.priority = priority
            self.sequence = sequence
            self.payload = payload
        }

        @inlinable
        func precedes(_ other: Entry) -> Bool {
            if time != other.time { return time < other.time }
            if priority != other.priority { return priority < other.priority }
            return sequence < other.sequence
        }
    }

    @usableFromInline var heap: [Entry] = []
    @usableFromInline var nextSequence: UInt64 = 0

    /// An empty queue with room for `capacity` items before it allocates again.
    @inlinable
    public init(reservingCapacity capacity: Int = 0) {
        heap.reserveCapacity(capacity)
    }

    /// Whether nothing is queued.
    @inlinable public var isEmpty: Bool { heap.isEmpty }

    /// How many items are queued.
    @inlinable public var count: Int { heap.count }

    /// The item that `popNext` would return, left in the queue.
    @inlinable public var next: Entry? { heap.first }

    /// Queues `payload` at `time`; among items due at the same instant, lower `priority`
    /// comes out first, and equal priorities keep the order they were pushed in.
    @inlinable
    public mutating func push(_ payload: Payload, at time: SimInstant, priority: Int = 0) {
        let entry = Entry(time: time, priority: priority, sequence: nextSequence, payload: payload)
        nextSequence &+= 1
        heap.append(entry)
        siftUp(from: heap.count - 1)
    }

    /// Removes and returns the earliest item (time, then priority, then push order).
    @inlinable
    public mutating func popNext() -> Entry? {
        guard !heap.isEmpty else { return nil }
        let last = heap.count - 1
        if last > 0 { heap.swapAt(0, last) }
        let entry = heap.removeLast()
        if last > 1 { siftDown(from: 0) }
        return entry
    }

    /// Empties the queue and keeps its storage for reuse.
    @inlinable
    public mutating func removeAll() {
        heap.removeAll(keepingCapacity: true)
    }

    @inlinable
    mutating func siftUp(from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    @inlinable
    mutating func siftDown(from start: Int) {
        var parent = start
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { return }
            let right = left + 1
            var smallest = heap[left].precedes(heap[parent]) ? left : parent
            if right < count && heap[right].precedes(heap[smallest]) { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

extension EventQueue.Entry: Sendable where Payload: Sendable {}
extension EventQueue: Sendable where Payload: Sendable {}
