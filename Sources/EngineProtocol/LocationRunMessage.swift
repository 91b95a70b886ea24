import ConfigJSON
import Device
import SimulationCore
import Traces

/// The `didUpdateLocationRun` message (capability `runs`): every delivery of a `LocationRun`
/// in one line, `{"type":"didUpdateLocationRun","count":N,"locations":[…]}`, each location
/// written by the writer `didUpdateLocations` uses (`ProtocolValues.write(_:deliveredAt:into:)`),
/// with its `deliveredAt`, the instant of its delivery. `count` comes before the locations, so
/// an engine that needs only how many there are can read it without parsing the rest.
///
/// A run can hold hundreds of thousands of deliveries, so the line is written straight into
/// one byte buffer kept from run to run (`ProtocolBytes`).
struct LocationRunMessage {
    /// The message's `type`.
    static let type = "didUpdateLocationRun"

    /// The most locations one message carries (about 1 MB of JSON): a longer run is sent in
    /// pieces, each answered before the next, so neither side holds a whole drive's line. The
    /// round trip is then paid once per 4,096 locations, a few nanoseconds each.
    static let maximumLocations = 4_096

    /// The last line written, newline included; its capacity is kept for the next.
    private var line = ProtocolBytes()

    /// The last line written, newline included.
    var bytes: [UInt8] { line.bytes }

    /// Writes the line for `deliveries` (not empty) into `bytes`.
    mutating func write(_ deliveries: ArraySlice<LocationDelivery>) {
        line.removeAll()
        line.reserveCapacity(64 + deliveries.count * 200)
        line.member(#"{"type":"didUpdateLocationRun","count":"#, Int64(deliveries.count))
        line.append(#","locations":"#)
        ProtocolValues.write(deliveries, into: &line)
        line.append("}\n")
    }

    /// Reads a run line's deliveries (the serving side): `count` must be how many there are.
    static func parse(_ value: JSONValue) throws(ProtocolMessageError) -> [LocationDelivery] {
        var fields = try MessageFields(value, context: type)
        _ = try fields.string("type")
        let count = try fields.integer("count")
        let deliveries = try ProtocolValues.deliveries(try fields.array("locations"), in: type)
        try fields.finish()
        guard !deliveries.isEmpty else { throw ProtocolMessageError("\(type): \"locations\" is empty") }
        guard count == deliveries.count else {
            throw ProtocolMessageError("\(type): \"count\" is \(count), but \"locations\" holds \(deliveries.count)")
        }
        return deliveries
    }
}
