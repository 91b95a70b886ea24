/// A protocol line written straight into bytes: no `String` per member, per location or per
/// number that fits a small string. Its owner keeps it from line to line, so the capacity a
/// long line needed is there for the next.
///
/// The members' spelling is `ProtocolLine`'s: the same keys in the same order, integers in
/// decimal, numbers in Swift's shortest round-trip digits.
struct ProtocolBytes {
    /// What has been written so far.
    private(set) var bytes: [UInt8] = []

    /// Empties the line, keeping its capacity.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(count)
    }

    /// The line as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `text` as it is: the caller knows nothing in it needs escaping.
    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Decimal digits, written backwards into a stack buffer and copied once.
    mutating func append(_ value: Int64) {
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index..<20]))
        }
    }

    /// Swift's shortest round-trip digits, as `ProtocolLine.number` writes a double.
    mutating func append(_ value: Double) {
        precondition(value.isFinite, "protocol numbers are finite; the importers reject others")
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Swift's shortest round-trip digits, as `ProtocolLine.number` writes a float.
    mutating func append(_ value: Float) {
        precondition(value.isFinite, "protocol numbers are finite; the importers reject others")
        bytes.append(contentsOf: value.description.utf8)
    }

    /// A member after the line's opening: `prefix` holds what comes before the value (the
    /// comma or brace, the quoted key and the colon), so a message's fixed text is one copy.
    mutating func member(_ prefix: StaticString, _ value: Int64) {
        append(prefix)
        append(value)
    }

    mutating func member(_ prefix: StaticString, _ value: Double) {
        append(prefix)
        append(value)
    }

    mutating func member(_ prefix: StaticString, _ value: Float) {
        append(prefix)
        append(value)
    }

    /// An optional member: written as `member(_:_:)` does when there is a value, left out when
    /// there is none.
    mutating func member(_ prefix: StaticString, ifPresent value: Double?) {
        if let value { member(prefix, value) }
    }

    mutating func member(_ prefix: StaticString, ifPresent value: Float?) {
        if let value { member(prefix, value) }
    }
}
