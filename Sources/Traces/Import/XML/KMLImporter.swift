import SimulationCore

/// Reads KML 2.2 `gx:Track` elements (also inside `gx:MultiTrack`): the n-th `<when>`
/// pairs with the n-th `<gx:coord>` (`lon lat [alt]`, space-separated), as the KML
/// extension reference defines. A track whose counts differ is an error. `<when>` outside
/// a track (a Placemark's `TimeStamp`) is not a fix.
struct KMLImporter: XMLTraceHandler {
    private enum Element: String, CaseIterable {
        case kml, track = "Track", when, coord

        static let byCode = allCases
    }

    private let values: XMLValues
    private var builder: TraceBuilder
    private var sawRoot = false
    private var track: TrackState?

    private struct TrackState {
        var line: Int
        var times: [(SimInstant, Int)] = []
        var coordinates: [(longitude: Double, latitude: Double, altitude: Double?, line: Int)] = []
    }

    static let elementNames = Element.byCode.map(\.rawValue)

    /// - Parameter fileBytes: sizes the fix array up front (a <when> and its <gx:coord> take at least 45 bytes).
    private init(file: String, fileBytes: Int) {
        values = XMLValues(file: file)
        builder = TraceBuilder(expectedFixes: fileBytes / 40)
    }

    static func read(_ source: TextSource) throws(TraceFormatError) -> Trace {
        var importer = KMLImporter(file: source.file, fileBytes: source.bytes.count)
        try XMLEventParser.parse(source, handler: &importer)
        guard importer.sawRoot else {
            throw TraceFormatError(file: source.file, problem: .unexpectedContent("no <kml> root element"))
        }
        return importer.builder.build(provenance: TraceProvenance(format: .kml))
    }

    mutating func didStart(_ code: Int, attributes: XMLAttributes, line: Int) throws(TraceFormatError) {
        switch Element.byCode[code] {
        case .kml: sawRoot = true
        case .track: track = TrackState(line: line)
        default: break
        }
    }

    mutating func didEnd(_ code: Int, text: UnsafeBufferPointer<UInt8>, line: Int) throws(TraceFormatError) {
        guard track != nil else { return }
        switch Element.byCode[code] {
        case .kml: break
        case .track: try finishTrack()
        case .when:
            guard let time = try values.timestamp(text, field: "when", line: line) else {
                throw values.fail(line, .missingField("when"))
            }
            track?.times.append((time, line))
        case .coord:
            try readCoordinate(text, line: line)
        }
    }

    private mutating func readCoordinate(_ text: UnsafeBufferPointer<UInt8>, line: Int) throws(TraceFormatError) {
        let trimmed = XMLValues.trimmed(text)
        var parts: [UnsafeBufferPointer<UInt8>] = []
        var start = 0
        for index in 0...trimmed.count {
            let isEnd = index == trimmed.count
            if isEnd || trimmed[index] == 0x20 || trimmed[index] == 0x09 {
                if index > start { parts.append(UnsafeBufferPointer(rebasing: trimmed[start..<index])) }
                start = index + 1
            }
        }
        guard parts.count == 2 || parts.count == 3 else {
            throw values.fail(line, .wrongFieldCount(expected: "2 or 3 (lon lat alt)", found: parts.count))
        }
        let longitude = try values.longitude(parts[0], field: "longitude", line: line)
        let latitude = try values.latitude(parts[1], field: "latitude", line: line)
        let altitude = parts.count == 3 ? try values.double(parts[2], field: "altitude", line: line) : nil
        track?.coordinates.append((longitude, latitude, altitude, line))
    }

    private mutating func finishTrack() throws(TraceFormatError) {
        guard let state = track else { return }
        track = nil
        guard state.times.count == state.coordinates.count else {
            throw values.fail(
                state.line,
                .unexpectedContent(
                    "gx:Track has \(state.times.count) <when> but \(state.coordinates.count) <gx:coord> elements"))
        }
        for (time, coordinate) in zip(state.times, state.coordinates) {
            builder.add(
                Fix(
                    timestamp: time.0, latitude: coordinate.latitude, longitude: coordinate.longitude,
                    altitudeMeters: coordinate.altitude),
                line: coordinate.line)
        }
    }
}
