import SimulationCore

/// Reads GPX 1.0 and 1.1 track points (`trkpt`). Route points (planned, not recorded) and
/// waypoints are not fixes; they are counted as skipped `waypoint` and `routePoint`.
///
/// Per point: `lat`/`lon` attributes, `ele`, `time`, `hdop`/`vdop` (dilutions, flagged so),
/// `fix` (`none` skips the point as `noFix`), `src` (`gps`, `network`, `fused` set the
/// provider), GPX 1.0's `speed` and `course`, and inside the point's `<extensions>`: Garmin
/// TrackPointExtension `speed`/`course`/`bearing`, OsmAnd's `speed`, TraceSim's own
/// `hacc`/`vacc`/`speedAccuracy`/`courseAccuracy`, and the same names (also `accuracy`,
/// `horizontalAccuracy`, `verticalAccuracy`) written without a prefix of their own.
///
/// Elements are matched on namespace as well as name. GPX elements are those in the root's
/// namespace (GPX 1.0 or 1.1, or none in a file that declares none); anything else inside
/// `<extensions>` is another program's data and is passed over, so a `<y:trkpt>` there, or
/// a `<x:trkpt>` of another vocabulary anywhere, is never read as a fix.
///
/// Each `<trk>` is a track (its `<name>` and `<type>` kept) and each `<trkseg>` a segment of
/// it; a `<trkpt>` outside any `<trkseg>` opens a segment of its own.
struct GPXImporter: XMLTraceHandler {
    /// The local names read; an element's code is its position in `allCases`.
    private enum Element: String, CaseIterable {
        case gpx, trkpt, wpt, rtept, extensions, ele, time, hdop, vdop, fix, src, speed, course, bearing
        case hacc, vacc, accuracy, horizontalAccuracy, verticalAccuracy, speedAccuracy, courseAccuracy
        case trk, trkseg, name, type, link

        /// Cached: the synthesized `allCases` builds a new array on every call.
        static let byCode = allCases
    }

    /// The namespaces told apart, by code.
    private enum Namespace: Int, CaseIterable {
        case gpx10, gpx11, garminTrackPointV1, garminTrackPointV2, osmand, osmandDocs, traceSim

        var uri: String {
            switch self {
            case .gpx10: "topografix.com/GPX/1/0"
            case .gpx11: "topografix.com/GPX/1/1"
            case .garminTrackPointV1: "garmin.com/xmlschemas/TrackPointExtension/v1"
            case .garminTrackPointV2: "garmin.com/xmlschemas/TrackPointExtension/v2"
            case .osmand: "osmand.net"
            case .osmandDocs: "osmand.net/docs/technical/osmand-file-formats/osmand-gpx"
            case .traceSim: "urn:tracesim:gpx:1"
            }
        }
    }

    private let values: XMLValues
    private var builder: TraceBuilder
    private var format = TraceFormat.gpx11
    private var sawRoot = false
    /// The root's namespace code: GPX elements are the ones in it.
    private var gpxNamespace = XMLNamespace.none
    /// How many GPX `<extensions>` elements are open around the current element.
    private var extensionsDepth = 0
    private var point: PointState?
    private var tracks = TrackState()

    /// Where the importer stands among `<trk>` and `<trkseg>` elements.
    private struct TrackState {
        var number = 0
        var segment = 0
        var isInTrack = false
        var isSegmentOpen = false
        var name: String?
        var type: String?
        /// How many `<link>` elements are open: their `<type>` is a MIME type, not the track's.
        var linkDepth = 0
    }

    private struct PointState {
        var line: Int
        var latitude: Double
        var longitude: Double
        var altitude: Double?
        var time: SimInstant?
        var hdop: Double?
        var vdop: Float?
        var measuredHorizontal: Double?
        var measuredVertical: Float?
        var speed: Float?
        var course: Float?
        var speedAccuracy: Float?
        var courseAccuracy: Float?
        var hasNoFix = false
        var provider = Provider.unknown
    }

    static let elementNames = Element.byCode.map(\.rawValue)
    static let namespaceURIs = Namespace.allCases.map(\.uri)

    /// - Parameter fileBytes: sizes the fix array up front (the smallest timed <trkpt> is about 60 bytes).
    private init(file: String, fileBytes: Int, trackOrder: TrackOrder) {
        values = XMLValues(file: file)
        builder = TraceBuilder(expectedFixes: fileBytes / 50, trackOrder: trackOrder)
    }

    static func read(_ source: TextSource, trackOrder: TrackOrder = .time) throws(TraceFormatError) -> Trace {
        var importer = try XMLEventParser.parse(source) {
            GPXImporter(file: source.file, fileBytes: source.bytes.count, trackOrder: trackOrder)
        }
        guard importer.sawRoot else {
            throw TraceFormatError(file: source.file, problem: .unexpectedContent("no <gpx> root element"))
        }
        return try importer.builder.build(provenance: TraceProvenance(format: importer.format))
    }

    mutating func didStart(_ code: Int, namespace: Int, attributes: XMLAttributes, line: Int)
        throws(TraceFormatError)
    {
        let element = Element.byCode[code]
        if element == .gpx, !sawRoot {
            guard
                namespace == XMLNamespace.none || namespace == Namespace.gpx10.rawValue
                    || namespace == Namespace.gpx11.rawValue
            else {
                throw values.fail(line, .unexpectedContent("<gpx> is not in the GPX 1.0 or 1.1 namespace"))
            }
            gpxNamespace = namespace
        }
        guard namespace == gpxNamespace else { return }
        if element == .extensions { extensionsDepth += 1 }
        guard extensionsDepth == 0 else { return }
        switch element {
        case .gpx:
            sawRoot = true
            if let version = attributes.value("version") {
                if XMLValues.equals(version, "1.0") {
                    format = .gpx10
                } else if !XMLValues.equals(version, "1.1") {
                    throw values.fail(
                        line, .unknownToken(field: "GPX version", token: String(decoding: version, as: UTF8.self)))
                }
            }
        case .trk:
            tracks = TrackState(number: tracks.number + 1, isInTrack: true)
        case .trkseg:
            openSegment(line: line)
        case .link: tracks.linkDepth += 1
        case .trkpt:
            guard sawRoot else { throw values.fail(line, .unexpectedContent("<trkpt> outside a <gpx> document")) }
            if !tracks.isSegmentOpen {
                if !tracks.isInTrack { tracks = TrackState(number: tracks.number + 1) }
                openSegment(line: line)
            }
            point = PointState(
                line: line,
                latitude: try values.latitude(attributes.value("lat"), field: "lat", line: line),
                longitude: try values.longitude(attributes.value("lon"), field: "lon", line: line)
            )
        case .wpt: builder.skip(.waypoint, line: line)
        case .rtept: builder.skip(.routePoint, line: line)
        case .extensions, .ele, .time, .hdop, .vdop, .fix, .src, .speed, .course, .bearing, .hacc, .vacc, .accuracy,
            .horizontalAccuracy, .verticalAccuracy, .speedAccuracy, .courseAccuracy, .name, .type:
            // Text-only elements: read when they end.
            break
        }
    }

    mutating func didEnd(_ code: Int, namespace: Int, text: UnsafeBufferPointer<UInt8>, line: Int)
        throws(TraceFormatError)
    {
        let element = Element.byCode[code]
        if element == .extensions, namespace == gpxNamespace {
            extensionsDepth -= 1
            return
        }
        if point == nil, namespace == gpxNamespace, extensionsDepth == 0 {
            switch element {
            case .trk: tracks = TrackState(number: tracks.number)
            case .trkseg: tracks.isSegmentOpen = false
            case .link: tracks.linkDepth -= 1
            // A track's own <name> and <type> come before its segments.
            case .name where tracks.isInTrack && !tracks.isSegmentOpen && tracks.linkDepth == 0:
                tracks.name = XMLValues.label(text)
            case .type where tracks.isInTrack && !tracks.isSegmentOpen && tracks.linkDepth == 0:
                tracks.type = XMLValues.label(text)
            case .gpx, .trkpt, .wpt, .rtept, .extensions, .ele, .time, .hdop, .vdop, .fix, .src, .speed, .course,
                .bearing, .hacc, .vacc, .accuracy, .horizontalAccuracy, .verticalAccuracy, .speedAccuracy,
                .courseAccuracy, .name, .type:
                // Outside a point only the track's structure and its own labels matter.
                break
            }
            return
        }
        guard point != nil, isRead(element, namespace: namespace) else { return }
        switch element {
        case .gpx, .wpt, .rtept, .extensions, .trk, .trkseg, .name, .type, .link: break
        case .trkpt: finishPoint()
        case .ele: point?.altitude = try values.double(text, field: "ele", line: line)
        case .time: point?.time = try values.timestamp(text, field: "time", line: line)
        case .hdop: point?.hdop = try values.nonNegativeDouble(text, field: "hdop", line: line)
        case .vdop: point?.vdop = try values.nonNegativeFloat(text, field: "vdop", line: line)
        case .fix: point?.hasNoFix = XMLValues.equals(text, "none")
        case .src: point?.provider = Self.provider(XMLValues.trimmed(text))
        case .speed: point?.speed = try values.nonNegativeFloat(text, field: "speed", line: line)
        case .course, .bearing: point?.course = try values.course(text, field: "course", line: line)
        case .hacc, .accuracy, .horizontalAccuracy:
            point?.measuredHorizontal = try values.nonNegativeDouble(text, field: "horizontal accuracy", line: line)
        case .vacc, .verticalAccuracy:
            point?.measuredVertical = try values.nonNegativeFloat(text, field: "vertical accuracy", line: line)
        case .speedAccuracy:
            point?.speedAccuracy = try values.nonNegativeFloat(text, field: "speed accuracy", line: line)
        case .courseAccuracy:
            point?.courseAccuracy = try values.nonNegativeFloat(text, field: "course accuracy", line: line)
        }
    }

    /// Whether this element, in this namespace and where it stands, is one the point holds:
    /// GPX's own fields outside `<extensions>`, the extensions listed above inside them.
    private func isRead(_ element: Element, namespace: Int) -> Bool {
        guard extensionsDepth > 0 else { return namespace == gpxNamespace }
        if namespace == gpxNamespace { return Self.extensionNames.contains(element) }
        switch Namespace(rawValue: namespace) {
        case .garminTrackPointV1, .garminTrackPointV2:
            return element == .speed || element == .course || element == .bearing
        case .osmand, .osmandDocs: return element == .speed
        case .traceSim:
            return element == .hacc || element == .vacc || element == .speedAccuracy || element == .courseAccuracy
        case .gpx10, .gpx11, nil: return false
        }
    }

    /// Extension fields also read when written in the document's own namespace (without a
    /// prefix of their own), as several Android loggers do.
    private static let extensionNames: Set<Element> = [
        .speed, .course, .bearing, .hacc, .vacc, .accuracy, .horizontalAccuracy, .verticalAccuracy, .speedAccuracy,
        .courseAccuracy,
    ]

    private mutating func openSegment(line: Int) {
        tracks.segment += 1
        tracks.isSegmentOpen = true
        builder.beginSegment(
            track: max(tracks.number, 1), segment: tracks.segment, kind: tracks.type, name: tracks.name, line: line,
            replacingEmpty: true)
    }

    private mutating func finishPoint() {
        guard let state = point else { return }
        point = nil
        if state.hasNoFix {
            builder.skip(.noFix, line: state.line)
            return
        }
        guard let time = state.time else {
            builder.untimed(line: state.line)
            return
        }
        var fix = Fix(
            timestamp: time, latitude: state.latitude, longitude: state.longitude, altitudeMeters: state.altitude,
            speedMetersPerSecond: state.speed, speedAccuracyMetersPerSecond: state.speedAccuracy,
            courseDegrees: state.course, courseAccuracyDegrees: state.courseAccuracy, provider: state.provider)
        if let measured = state.measuredHorizontal {
            fix.horizontalAccuracy = .meters(measured)
        } else if let hdop = state.hdop {
            fix.horizontalAccuracy = .dilution(hdop)
        }
        if let measured = state.measuredVertical {
            fix.verticalAccuracy = .meters(Double(measured))
        } else if let vdop = state.vdop {
            fix.verticalAccuracy = .dilution(Double(vdop))
        }
        builder.add(fix, line: state.line)
    }

    private static func provider(_ text: UnsafeBufferPointer<UInt8>) -> Provider {
        let name = String(decoding: text, as: UTF8.self).lowercased()
        switch name {
        case "gps", "gnss": return .gps
        case "network", "cell", "wifi": return .network
        case "fused": return .fused
        default: return .unknown
        }
    }
}
