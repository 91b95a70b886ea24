import SimulationCore

/// Reads Garmin Training Center XML (TCX v2) `Trackpoint`s: `Time`, `Position`
/// (`LatitudeDegrees`, `LongitudeDegrees`), `AltitudeMeters` and the ActivityExtension
/// `TPX/Speed` in m/s. Garmin devices are satellite receivers, so the provider is `gps`.
/// A trackpoint without a position (heart rate only, or paused) is skipped as `noPosition`.
///
/// Elements are matched on namespace as well as name: TCX's own are those in the root's
/// namespace (TCX v2, or none in a file that declares none). Inside `<Extensions>` only
/// `Speed` is read, from Garmin's ActivityExtension or, as some writers leave it, TCX's own.
///
/// Each `<Activity>` is a track (its `Sport` kept as the kind) whose `<Lap>`s are its segments;
/// each `<Course>` is a track (its `<Name>` kept) whose `<Track>`s are its segments.
struct TCXImporter: XMLTraceHandler {
    private enum Element: String, CaseIterable {
        case trainingCenterDatabase = "TrainingCenterDatabase"
        case trackpoint = "Trackpoint"
        case extensions = "Extensions"
        case time = "Time"
        case latitude = "LatitudeDegrees"
        case longitude = "LongitudeDegrees"
        case altitude = "AltitudeMeters"
        case speed = "Speed"
        case activity = "Activity"
        case course = "Course"
        case lap = "Lap"
        case track = "Track"
        case name = "Name"

        static let byCode = allCases
    }

    private enum Namespace: Int, CaseIterable {
        case tcx2, activityExtension1, activityExtension2

        var uri: String {
            switch self {
            case .tcx2: "garmin.com/xmlschemas/TrainingCenterDatabase/v2"
            case .activityExtension1: "garmin.com/xmlschemas/ActivityExtension/v1"
            case .activityExtension2: "garmin.com/xmlschemas/ActivityExtension/v2"
            }
        }
    }

    private let values: XMLValues
    private var builder: TraceBuilder
    private var sawRoot = false
    /// The root's namespace code: TCX elements are the ones in it.
    private var tcxNamespace = XMLNamespace.none
    /// How many TCX `<Extensions>` elements are open around the current element.
    private var extensionsDepth = 0
    private var point: PointState?
    private var tracks = TrackState()

    /// Where the importer stands among activities, courses and their laps.
    private struct TrackState {
        var number = 0
        var segment = 0
        var isInCourse = false
        var isSegmentOpen = false
        var kind: String?
        var name: String?
    }

    private struct PointState {
        var line: Int
        var time: SimInstant?
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var speed: Float?
    }

    static let elementNames = Element.byCode.map(\.rawValue)
    static let namespaceURIs = Namespace.allCases.map(\.uri)

    /// - Parameter fileBytes: sizes the fix array up front (a timed <Trackpoint> with a <Position> takes over 120 bytes).
    private init(file: String, fileBytes: Int, trackOrder: TrackOrder) {
        values = XMLValues(file: file)
        builder = TraceBuilder(expectedFixes: fileBytes / 100, trackOrder: trackOrder)
    }

    static func read(_ source: TextSource, trackOrder: TrackOrder = .time) throws(TraceFormatError) -> Trace {
        var importer = try XMLEventParser.parse(source) {
            TCXImporter(file: source.file, fileBytes: source.bytes.count, trackOrder: trackOrder)
        }
        guard importer.sawRoot else {
            throw TraceFormatError(
                file: source.file, problem: .unexpectedContent("no <TrainingCenterDatabase> root element"))
        }
        return try importer.builder.build(provenance: TraceProvenance(format: .tcx, device: nil))
    }

    mutating func didStart(_ code: Int, namespace: Int, attributes: XMLAttributes, line: Int)
        throws(TraceFormatError)
    {
        let element = Element.byCode[code]
        if element == .trainingCenterDatabase, !sawRoot {
            guard namespace == XMLNamespace.none || namespace == Namespace.tcx2.rawValue else {
                throw values.fail(line, .unexpectedContent("<TrainingCenterDatabase> is not in the TCX v2 namespace"))
            }
            tcxNamespace = namespace
        }
        guard namespace == tcxNamespace else { return }
        if element == .extensions { extensionsDepth += 1 }
        guard extensionsDepth == 0 else { return }
        switch element {
        case .trainingCenterDatabase: sawRoot = true
        case .activity:
            tracks = TrackState(number: tracks.number + 1)
            tracks.kind = attributes.value("Sport").flatMap { XMLValues.label($0) }
        case .course: tracks = TrackState(number: tracks.number + 1, isInCourse: true)
        case .lap where !tracks.isInCourse: openSegment(line: line)
        case .track where tracks.isInCourse: openSegment(line: line)
        case .trackpoint:
            if !tracks.isSegmentOpen { openSegment(line: line) }
            point = PointState(line: line)
        case .extensions, .time, .latitude, .longitude, .altitude, .speed, .name, .lap, .track:
            // Text-only elements, read when they end; a lap inside a course, or a track outside
            // one, opens no segment.
            break
        }
    }

    private mutating func openSegment(line: Int) {
        tracks.number = max(tracks.number, 1)
        tracks.segment += 1
        tracks.isSegmentOpen = true
        builder.beginSegment(
            track: tracks.number, segment: tracks.segment, kind: tracks.kind, name: tracks.name, line: line,
            replacingEmpty: true)
    }

    mutating func didEnd(_ code: Int, namespace: Int, text: UnsafeBufferPointer<UInt8>, line: Int)
        throws(TraceFormatError)
    {
        let element = Element.byCode[code]
        if element == .extensions, namespace == tcxNamespace {
            extensionsDepth -= 1
            return
        }
        if point == nil, namespace == tcxNamespace, extensionsDepth == 0 {
            switch element {
            case .activity, .course: tracks = TrackState(number: tracks.number)
            case .lap where !tracks.isInCourse: tracks.isSegmentOpen = false
            case .track where tracks.isInCourse: tracks.isSegmentOpen = false
            // A course's own <Name> comes before its laps and tracks; later ones name course points.
            case .name where tracks.isInCourse && tracks.segment == 0 && tracks.name == nil:
                tracks.name = XMLValues.label(text)
            case .trainingCenterDatabase, .trackpoint, .extensions, .time, .latitude, .longitude, .altitude, .speed,
                .lap, .track, .name:
                // Outside a point only the activity's or course's structure and its name matter.
                break
            }
            return
        }
        guard element != .trainingCenterDatabase, point != nil, isRead(element, namespace: namespace) else { return }
        switch element {
        case .trainingCenterDatabase, .extensions, .activity, .course, .lap, .track, .name: break
        case .trackpoint: try finishPoint()
        case .time: point?.time = try values.timestamp(text, field: "Time", line: line)
        case .latitude: point?.latitude = try values.latitude(text, field: "LatitudeDegrees", line: line)
        case .longitude: point?.longitude = try values.longitude(text, field: "LongitudeDegrees", line: line)
        case .altitude: point?.altitude = try values.double(text, field: "AltitudeMeters", line: line)
        case .speed: point?.speed = try values.nonNegativeFloat(text, field: "Speed", line: line)
        }
    }

    /// TCX's own fields outside `<Extensions>`; inside them, only an ActivityExtension speed.
    private func isRead(_ element: Element, namespace: Int) -> Bool {
        guard extensionsDepth > 0 else { return namespace == tcxNamespace }
        guard element == .speed else { return false }
        return namespace == tcxNamespace || namespace == Namespace.activityExtension1.rawValue
            || namespace == Namespace.activityExtension2.rawValue
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
