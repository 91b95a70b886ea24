import ConfigJSON
import Device
@testable import EngineProtocol
import SimulationCore
import Testing
import Traces

/// The protocol has one writer of a location, called by `didUpdateLocations`,
/// `didReceiveSignificantChange` and `didUpdateLocationRun`. These lines are the documented
/// bytes (the EngineProtocol article and the schema), written out in full so a change to the
/// writer shows here rather than only in a comparison of the messages with each other. Fast tier.
@Suite("One location writer for every protocol message")
struct LocationWriterTests {
    static let now = SimInstant(nanosecondsSinceEpoch: 1_581_041_612_000_000_000)

    /// Every optional member present, on the branches `deliveryLine` does not take: a dilution
    /// for the horizontal accuracy, metres for the vertical one, a time before the epoch.
    static var full: Fix {
        var fix = Fix(
            timestamp: SimInstant(nanosecondsSinceEpoch: -1_500_000_000), latitude: -33.856784, longitude: 151.215297)
        fix.altitudeMeters = -12.25
        fix.horizontalAccuracy = .dilution(1.3)
        fix.verticalAccuracy = .meters(4.7)
        fix.speedMetersPerSecond = 0
        fix.speedAccuracyMetersPerSecond = 0.5
        fix.courseDegrees = 359.9
        fix.courseAccuracyDegrees = 2
        fix.provider = .network
        return fix
    }

    /// No optional member, and numbers Swift writes with an exponent.
    static let bare = Fix(timestamp: now, latitude: 1e-05, longitude: -1e-07)

    static let fullText =
        #"{"timestamp":-1500000000,"deliveredAt":0,"latitude":-33.856784,"longitude":151.215297,"altitude":-12.25,"horizontalDilution":1.3,"verticalAccuracy":4.7,"speed":0.0,"speedAccuracy":0.5,"course":359.9,"courseAccuracy":2.0,"provider":"network"}"#
    static let bareText =
        #"{"timestamp":1581041612000000000,"deliveredAt":1581041612000000001,"latitude":1e-05,"longitude":-1e-07,"provider":"unknown"}"#

    static let deliveries = [
        LocationDelivery(fix: full, time: SimInstant(nanosecondsSinceEpoch: 0)),
        LocationDelivery(fix: bare, time: SimInstant(nanosecondsSinceEpoch: now.nanosecondsSinceEpoch + 1)),
    ]

    @Test("didUpdateLocations writes each location's members in the documented order, and only those it has")
    func locationsEvent() {
        #expect(
            EngineEvent.didUpdateLocations(Self.deliveries).line(now: Self.now)
                == #"{"type":"didUpdateLocations","now":1581041612000000000,"locations":["# + Self.fullText + ","
                + Self.bareText + "]}")
        #expect(
            EngineEvent.didUpdateLocations([]).line(now: Self.now)
                == #"{"type":"didUpdateLocations","now":1581041612000000000,"locations":[]}"#)
    }

    @Test("didUpdateLocationRun writes the same locations after its count; lines written in turn each end in a newline")
    func runMessage() {
        var message = LocationRunMessage()
        message.write(Self.deliveries[...])
        #expect(
            String(decoding: message.bytes, as: UTF8.self)
                == #"{"type":"didUpdateLocationRun","count":2,"locations":["# + Self.fullText + "," + Self.bareText
                + "]}\n")
        var line = ProtocolBytes()
        EngineEvent.didUpdateLocations(Self.deliveries).write(now: Self.now, into: &line)
        EngineEvent.finish.write(now: Self.now, into: &line)
        #expect(
            line.text
                == #"{"type":"didUpdateLocations","now":1581041612000000000,"locations":["# + Self.fullText + ","
                + Self.bareText + "]}\n" + #"{"type":"finish","now":1581041612000000000}"# + "\n")
    }

    @Test("a significant change is the same location without deliveredAt")
    func significantChange() {
        #expect(
            EngineEvent.didReceiveSignificantChange(Self.bare).line(now: Self.now)
                == #"{"type":"didReceiveSignificantChange","now":1581041612000000000,"location":{"timestamp":1581041612000000000,"latitude":1e-05,"longitude":-1e-07,"provider":"unknown"}}"#
        )
    }

    @Test("both messages' locations read back through one reader, which names a location without deliveredAt")
    func oneReader() throws {
        let event = EngineEvent.didUpdateLocations(Self.deliveries).line(now: Self.now)
        let read = try #require(
            try EngineEvent.parse(try JSONValue.parse(protocolLine: Array(event.utf8)), type: "didUpdateLocations"))
        #expect(read.event == .didUpdateLocations(Self.deliveries))
        var message = LocationRunMessage()
        message.write(Self.deliveries[...])
        let (value, _) = try JSONValue.message(message.bytes.dropLast())
        #expect(try LocationRunMessage.parse(value) == Self.deliveries)

        let undelivered =
            #"{"type":"didUpdateLocations","now":1,"locations":[{"timestamp":1,"deliveredAt":1,"latitude":0,"longitude":0},{"timestamp":2,"latitude":0,"longitude":0}]}"#
        #expect(throws: ProtocolMessageError(#"didUpdateLocations: locations[1]: "deliveredAt" is missing"#)) {
            _ = try EngineEvent.parse(try JSONValue.parse(protocolLine: Array(undelivered.utf8)), type: "didUpdateLocations")
        }
    }
}
