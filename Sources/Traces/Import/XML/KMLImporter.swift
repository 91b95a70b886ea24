import SimulationCore

/// Reads KML 2.2 `gx:Track` elements (also inside `gx:MultiTrack`): the n-th `<when>`
/// pairs with the n-th `<gx:coord>` (`lon lat [alt]`, space-separated), as the KML
/// extension reference defines. A track whose counts differ is an error. `<when>` outside
/// a track (a Placemark's `TimeStamp`) is not a fix.
///
/// Elements are matched on namespace as well as name: `kml` and `when` in the root's KML
/// namespace (2.2, 2.3, Google's older 2.0–2.2, or none in a file that declares none),
/// `Track` and `coord` in Google's `gx` extension or, as KML 2.3 defines them, the root's.
/// What lies inside `<ExtendedData>` is the author's own data and is never read.
///
/// Each `<Placemark>` holding tracks is a track (its `<name>` kept) and each `gx:Track` in it
/// (several inside a `gx:MultiTrack`) a segment; a `gx:Track` outside a Placemark is a track
/// of its own.
struct KMLImporter: XMLTraceHandler {
    private enum Element: String, CaseIterable {
        case kml, track = "Track", when, coord, extendedData = "ExtendedData"
        case placemark = "Placemark", name

        static let byCode = allCases
    }

    private enum Namespace: Int, CaseIterable {
        case kml22, kml23, google20, google21, google22, gx

        var uri: String {
            switch self {
            case .kml22: "opengis.net/kml/2.2"
            case .kml23: "opengis.net/kml/2.3"
            case .google20: "earth.google.com/kml/2.0"
            case .google21: "earth.google.com/kml/2.1"
            case .google22: "earth.google.com/kml/2.2"
            case .gx: "google.com/kml/ext/2.2"
            }
        }
    }

    private let values: XMLValues
    private var builder: TraceBuilder
    private var sawRoot = false
    /// The root's namespace code: KML elements are the ones in it.
    private var kmlNamespace = XMLNamespace.none
    /// How many `<ExtendedData>` elements are open around the current element.
    private var extendedDataDepth = 0
    private var track: TrackState?
    private var placemark = PlacemarkState()

    /// The Placemark around the current element, as a track.
    private struct PlacemarkState {
        /// Tracks numbered so far: only Placemarks that hold a `gx:Track` count.
        var number = 0
        var segment = 0
        var isOpen = false
        var name: String?
    }

    private struct TrackState {
        var line: Int
        var times: [(SimInstant, Int)] = []
        var coordinates: [(longitude: Double, latitude: Double, altitude: Double?, line: Int)] = []
    }

    static let elementNames = Element.byCode.map(\.rawValue)
    static let namespaceURIs = Namespace.allCases.map(\.uri)

    /// - Parameter fileBytes: sizes the fix array up front (a <when> and its <gx:coord> take at least 45 bytes).
    private init(file: String, fileBytes: Int, trackOrder: TrackOrder) {
        values = XMLValues(file: file)
        builder = TraceBuilder(expectedFixes: fileBytes / 40, trackOrder: trackOrder)
    }

    static func read(_ source: TextSource, trackOrder: TrackOrder = .time) throws(TraceFormatError) -> Trace {
        var importer = try XMLEventParser.parse(source) {
            KMLImporter(file: source.file, fileBytes: source.bytes.count, trackOrder: trackOrder)
        }
        guard importer.sawRoot else {
            throw TraceFormatError(file: source.file, problem: .unexpectedContent("no <kml> root element"))
        }
        return try importer.builder.build(provenance: TraceProvenance(format: .kml))
    }

    mutating func didStart(_ code: Int, namespace: Int, attributes: XMLAttributes, line: Int)
        throws(TraceFormatError)
    {
        let element = Element.byCode[code]
        if element == .kml, !sawRoot {
            guard namespace == XMLNamespace.none || (namespace >= 0 && namespace != Namespace.gx.rawValue) else {
                throw values.fail(line, .unexpectedContent("<kml> is not in a KML namespace"))
            }
            kmlNamespace = namespace
        }
        if element == .extendedData, namespace == kmlNamespace { extendedDataDepth += 1 }
        guard extendedDataDepth == 0, isRead(element, namespace: namespace) else { return }
        switch element {
        case .kml: sawRoot = true
        case .placemark: placemark = PlacemarkState(number: placemark.number, isOpen: true)
        case .track:
            if placemark.segment == 0 || !placemark.isOpen {
                placemark.number += 1
                placemark.segment = 0
            }
            placemark.segment += 1
            builder.beginSegment(
                track: placemark.number, segment: placemark.segment, kind: nil, name: placemark.name, line: line,
                replacingEmpty: true)
            track = TrackState(line: line)
        case .when, .coord, .extendedData, .name:
            // Text-only elements, read when they end (ExtendedData is counted above).
            break
        }
    }

    mutating func didEnd(_ code: Int, namespace: Int, text: UnsafeBufferPointer<UInt8>, line: Int)
        throws(TraceFormatError)
    {
        let element = Element.byCode[code]
        if element == .extendedData, namespace == kmlNamespace {
            extendedDataDepth -= 1
            return
        }
        if track == nil, extendedDataDepth == 0, namespace == kmlNamespace {
            switch element {
            case .placemark: placemark = PlacemarkState(number: placemark.number)
            // The Placemark's own <name> comes before its geometry.
            case .name where placemark.isOpen && placemark.segment == 0: placemark.name = XMLValues.label(text)
            case .kml, .track, .when, .coord, .extendedData, .name:
                // Outside a track only the Placemark and its own name matter.
                break
            }
            return
        }
        guard track != nil, extendedDataDepth == 0, isRead(element, namespace: namespace) else { return }
        switch element {
        case .kml, .extendedData, .placemark, .name: break
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

    /// `Track` and `coord` come from the `gx` extension (KML 2.3 adopted them into its own
    /// namespace); everything else is KML's own.
    private func isRead(_ element: Element, namespace: Int) -> Bool {
        switch element {
        case .track, .coord: namespace == kmlNamespace || namespace == Namespace.gx.rawValue
        case .kml, .when, .extendedData, .placemark, .name: namespace == kmlNamespace
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
