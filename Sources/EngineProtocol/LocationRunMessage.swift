import ConfigJSON
import Device
import SimulationCore
import Traces

/// The `didUpdateLocationRun` message (capability `runs`): every delivery of a `LocationRun`
/// in one line, `{"type":"didUpdateLocationRun","count":N,"locations":[…]}`, each location
/// written exactly as `didUpdateLocations` writes it (with its `deliveredAt`, the instant of
/// its delivery). `count` comes before the locations, so an engine that needs only how many
/// there are can read it without parsing the rest.
///
/// A run can hold hundreds of thousands of deliveries, so the line is written straight into
/// one byte buffer kept from run to run: no `String` per delivery or per number that fits a
/// small string.
struct LocationRunMessage {
    /// The message's `type`.
    static let type = "didUpdateLocationRun"

    /// The most locations one message carries (about 1 MB of JSON): a longer run is sent in
    /// pieces, each answered before the next, so neither side holds a whole drive's line. The
    /// round trip is then paid once per 4,096 locations, a few nanoseconds each.
    static let maximumLocations = 4_096

    /// The last line written, newline included; its capacity is kept for the next.
    private(set) var bytes: [UInt8] = []

    /// Writes the line for `deliveries` (not empty) into `bytes`.
    mutating func write(_ deliveries: ArraySlice<LocationDelivery>) {
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(64 + deliveries.count * 200)
        append(#"{"type":"didUpdateLocationRun","count":"#)
        append(Int64(deliveries.count))
        append(#","locations":["#)
        var isFirst = true
        for delivery in deliveries {
            if !isFirst { bytes.append(UInt8(ascii: ",")) }
            isFirst = false
            append(delivery.fix, deliveredAt: delivery.time)
        }
        append("]}\n")
    }

    /// One location, member for member as `ProtocolValues.fix(_:deliveredAt:)` writes it.
    private mutating func append(_ fix: Fix, deliveredAt: SimInstant) {
        append(#"{"timestamp":"#)
        append(fix.timestamp.nanosecondsSinceEpoch)
        append(#","deliveredAt":"#)
        append(deliveredAt.nanosecondsSinceEpoch)
        append(#","latitude":"#)
        append(fix.latitude)
        append(#","longitude":"#)
        append(fix.longitude)
        if let altitude = fix.altitudeMeters {
            append(#","altitude":"#)
            append(altitude)
        }
        switch fix.horizontalAccuracy {
        case .meters(let meters)?:
            append(#","horizontalAccuracy":"#)
            append(meters)
        case .dilution(let dilution)?:
            append(#","horizontalDilution":"#)
            append(dilution)
        case nil: break
        }
        // Stored as a float, written as one (as `ProtocolValues.fix` does), so it reads back.
        switch fix.verticalAccuracy {
        case .meters(let meters)?:
            append(#","verticalAccuracy":"#)
            append(Float(meters))
        case .dilution(let dilution)?:
            append(#","verticalDilution":"#)
            append(Float(dilution))
        case nil: break
        }
        if let speed = fix.speedMetersPerSecond {
            append(#","speed":"#)
            append(speed)
        }
        if let accuracy = fix.speedAccuracyMetersPerSecond {
            append(#","speedAccuracy":"#)
            append(accuracy)
        }
        if let course = fix.courseDegrees {
            append(#","course":"#)
            append(course)
        }
        if let accuracy = fix.courseAccuracyDegrees {
            append(#","courseAccuracy":"#)
            append(accuracy)
        }
        append(#","provider":""#)
        // A provider's name is a lower-case word: nothing in it needs escaping.
        append(fix.provider.name)
        append("\"}")
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Decimal digits, written backwards into a stack buffer and copied once.
    private mutating func append(_ value: Int64) {
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

    /// Swift's shortest round-trip digits, as `ProtocolLine` writes a number.
    private mutating func append(_ value: Double) {
        precondition(value.isFinite, "protocol numbers are finite; the importers reject others")
        bytes.append(contentsOf: value.description.utf8)
    }

    private mutating func append(_ value: Float) {
        precondition(value.isFinite, "protocol numbers are finite; the importers reject others")
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Reads a run line's deliveries (the serving side): `count` must be how many there are.
    static func parse(_ value: JSONValue) throws(ProtocolMessageError) -> [LocationDelivery] {
        var fields = try MessageFields(value, context: type)
        _ = try fields.string("type")
        let count = try fields.integer("count")
        var deliveries: [LocationDelivery] = []
        let locations = try fields.array("locations")
        deliveries.reserveCapacity(locations.count)
        for (index, element) in locations.enumerated() {
            let read = try ProtocolValues.fix(element.value, context: "\(type): locations[\(index)]")
            guard let time = read.deliveredAt else {
                throw ProtocolMessageError("\(type): locations[\(index)]: \"deliveredAt\" is missing")
            }
            deliveries.append(LocationDelivery(fix: read.fix, time: time))
        }
        try fields.finish()
        guard !deliveries.isEmpty else { throw ProtocolMessageError("\(type): \"locations\" is empty") }
        guard count == deliveries.count else {
            throw ProtocolMessageError("\(type): \"count\" is \(count), but \"locations\" holds \(deliveries.count)")
        }
        return deliveries
    }
}
