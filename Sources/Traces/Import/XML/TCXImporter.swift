import SimulationCore

/// Reads Garmin Training Center XML (TCX v2) `Trackpoint`s: `Time`, `Position`
/// (`LatitudeDegrees`, `LongitudeDegrees`), `AltitudeMeters` and the ActivityExtension
/// `TPX/Speed` in m/s. Garmin devices are satellite receivers, so the provider is `gps`.
/// A trackpoint without a position (heart rate only, or paused) is skipped as `noPosition`.
struct TCXImporter: XMLTraceHandler {
    private enum Element: String, CaseIterable {
        case trainingCenterDatabase = "TrainingCenterDatabase"
        case trackpoint = "Trackpoint"
        case time = "Time"
        case latitude = "LatitudeDegrees"
        case longitude = "LongitudeDegrees"
        case altitude = "AltitudeMeters"
        case speed = "Speed"

        static let byCode = allCases
    }

    private let values: XMLValues
    private var builder: TraceBuilder
    private var sawRoot = false
    private var point: PointState?

    private struct PointState {
        var line: Int
        var time: SimInstant?
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var speed: Float?
    }

    static let elementNames = Element.byCode.map(\.rawValue)

    /// - Parameter fileBytes: sizes the fix array up front (a timed <Trackpoint> with a <Position> takes over 120 bytes).
    private init(file: String, fileBytes: Int) {
        values = XMLValues(file: file)
        builder = TraceBuilder(expectedFixes: fileBytes / 100)
    }

    static func read(_ source: TextSource) throws(TraceFormatError) -> Trace {
        var importer = TCXImporter(file: source.file, fileBytes: source.bytes.count)
        try XMLEventParser.parse(source, handler: &importer)
        guard importer.sawRoot else {
            throw TraceFormatError(
                file: source.file, problem: .unexpectedContent("no <TrainingCenterDatabase> root element"))
        }
        return importer.builder.build(provenance: TraceProvenance(format: .tcx, device: nil))
    }

    mutating func didStart(_ code: Int, attributes: XMLAttributes, line: Int) throws(TraceFormatError) {
        switch Element.byCode[code] {
        case .trainingCenterDatabase: sawRoot = true
        case .trackpoint: point = PointState(line: line)
        default: break
        }
    }

    mutating func didEnd(_ code: Int, text: UnsafeBufferPointer<UInt8>, line: Int) throws(TraceFormatError) {
        let element = Element.byCode[code]
        guard element != .trainingCenterDatabase, point != nil else { return }
        switch element {
        case .trainingCenterDatabase: break
        case .trackpoint: try finishPoint()
        case .time: point?.time = try values.timestamp(text, field: "Time", line: line)
        case .latitude: point?.latitude = try values.latitude(text, field: "LatitudeDegrees", line: line)
        case .longitude: point?.longitude = try values.longitude(text, field: "LongitudeDegrees", line: line)
        case .altitude: point?.altitude = try values.double(text, field: "AltitudeMeters", line: line)
        case .speed: point?.speed = try values.nonNegativeFloat(text, field: "Speed", line: line)
        }
    }

    private mutating func finishPoint() throws(TraceFormatError) {
        guard let state = point else { return }
        point = nil
        guard let latitude = state.latitude, let longitude = state.longitude else {
            if (state.latitude == nil) != (state.longitude == nil) {
                throw values.fail(
                    state.line, .missingField(state.latitude == nil ? "LatitudeDegrees" : "LongitudeDegrees"))
            }
            builder.skip(.noPosition, line: state.line)
            return
        }
        guard let time = state.time else {
            builder.untimed(line: state.line)
            return
        }
        builder.add(
            Fix(
                timestamp: time, latitude: latitude, longitude: longitude, altitudeMeters: state.altitude,
                speedMetersPerSecond: state.speed, provider: .gps),
            line: state.line)
    }
}
