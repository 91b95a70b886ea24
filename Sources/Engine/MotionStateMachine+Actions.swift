extension MotionStateMachine {
    /// What one event makes the machine do, in order: at most `capacity` actions, held inline.
    ///
    /// Every accepted fix is an event, and almost all of them do nothing; an array returned
    /// per event paid for its buffer (and its release) on each one. A value of fixed size costs
    /// a few stores and is read in place (issue 32). It is a random-access collection of
    /// `Action`, so it reads like the array it replaces, and an array literal makes one.
    public struct Actions: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral,
        CustomStringConvertible
    {
        /// The most actions one event produces: a departure (leave the region, start GPS, note
        /// it) and an arrival (stop GPS, leave a region, note it) each make three.
        public static let capacity = 3

        // The slots past `endIndex` hold a filler and are never read.
        private var first = Action.startGPS
        private var second = Action.startGPS
        private var third = Action.startGPS
        private var storedCount: UInt8 = 0

        /// No actions.
        public init() {}

        /// The actions of an array literal, in order.
        /// - Parameter elements: at most `capacity` actions; more is a programming error.
        public init(arrayLiteral elements: Action...) {
            for action in elements { append(action) }
        }

        /// Three actions, in order.
        init(_ first: Action, _ second: Action, _ third: Action) {
            self.first = first
            self.second = second
            self.third = third
            storedCount = 3
        }

        /// The position of the first action: 0.
        public var startIndex: Int { 0 }
        /// One past the last action: how many there are.
        public var endIndex: Int { Int(storedCount) }

        /// The action at `position`, which must be below `endIndex`.
        /// - Complexity: O(1).
        public subscript(position: Int) -> Action {
            precondition(position >= 0 && position < endIndex, "motion action index \(position) out of range")
            switch position {
            case 0: return first
            case 1: return second
            default: return third
            }
        }

        /// Adds `action` after the others; more than `capacity` is a programming error.
        mutating func append(_ action: Action) {
            switch storedCount {
            case 0: first = action
            case 1: second = action
            case 2: third = action
            default: preconditionFailure("a motion event makes at most \(Self.capacity) actions")
            }
            storedCount += 1
        }

        /// Whether both hold the same actions in the same order.
        public static func == (lhs: Actions, rhs: Actions) -> Bool { lhs.elementsEqual(rhs) }

        /// The actions as an array literal would show them.
        public var description: String { Array(self).description }
    }
}
