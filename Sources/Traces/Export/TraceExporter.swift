import SimulationCore

/// The formats TraceSim writes, chosen by the output file's extension.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// TraceSim canonical CSV (`.csv`).
    case csv
    /// TraceSim JSON Lines (`.jsonl`).
    case jsonLines = "jsonl"
    /// GPX 1.1 (`.gpx`).
    case gpx

    /// The format for a path's extension, or `nil` when TraceSim does not write it.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// Whether the format carries motion samples as well as fixes.
    public var carriesMotion: Bool { self == .jsonLines }
}

/// Writes traces in TraceSim's canonical formats. Each fix field is written at its stored
/// precision, so re-importing the output reproduces every fix exactly.
public enum TraceExporter {
    /// The file content for `trace` in `format`.
    public static func export(_ trace: Trace, as format: ExportFormat) -> String {
        switch format {
        case .csv: canonicalCSV(trace)
        case .jsonLines: jsonLines(trace)
        case .gpx: gpx(trace)
        }
    }

    /// Canonical CSV: a comment naming the source, the full header, one row per fix.
    /// Motion samples are not representable and are not written. A trace of several
    /// segments gets a last `segment` column (`track.segment`); others are written as before.
    public static func canonicalCSV(_ trace: Trace) -> String {
        var text = "# TraceSim canonical CSV; source format \(trace.provenance.format.rawValue)\n"
        let labels = segmentLabels(trace)
        let fields = CanonicalField.fixFields + (labels.isEmpty ? [] : [.segment])
        text += fields.map(\.name).joined(separator: ",") + "\n"
        text.reserveCapacity(trace.fixes.count * 120)
        for (index, fix) in trace.fixes.enumerated() {
            var cells: [String] = []
            cells.reserveCapacity(fields.count)
            for field in CanonicalField.fixFields { cells.append(value(of: field, in: fix) ?? "") }
            if !labels.isEmpty { cells.append(labels[Int(trace.fixSegments[index])]) }
            text += cells.joined(separator: ",")
            text += "\n"
        }
        return text
    }

    /// Each segment's `track.segment` label, or none when the trace has one segment.
    private static func segmentLabels(_ trace: Trace) -> [String] {
        trace.fixSegments.isEmpty ? [] : trace.segments.map(\.label)
    }

    /// JSON Lines: fixes and motion samples interleaved in time order (a fix first at a
    /// tie), each object's keys in `CanonicalField` order, absent fields left out.
    public static func jsonLines(_ trace: Trace) -> String {
        var text = ""
        text.reserveCapacity(trace.fixes.count * 160)
        var motionIndex = 0
        let samples = trace.motionSamples
        let labels = segmentLabels(trace)
        for (index, fix) in trace.fixes.enumerated() {
            while motionIndex < samples.count, samples[motionIndex].timestamp < fix.timestamp {
                appendMotion(samples[motionIndex], to: &text)
                motionIndex += 1
            }
            text += "{"
            var isFirst = true
            for field in CanonicalField.fixFields {
                guard let value = value(of: field, in: fix) else { continue }
                if !isFirst { text += "," }
                isFirst = false
                let isString = field == .time || field == .provider
                text += "\"\(field.name)\":" + (isString ? "\"\(value)\"" : value)
            }
            if !labels.isEmpty { text += ",\"segment\":\"\(labels[Int(trace.fixSegments[index])])\"" }
            text += "}\n"
        }
        while motionIndex < samples.count {
            appendMotion(samples[motionIndex], to: &text)
            motionIndex += 1
        }
        return text
    }

    private static func appendMotion(_ sample: MotionSample, to text: inout String) {
        let activities = sample.activity.names.map { "\"\($0)\"" }.joined(separator: ",")
        text += "{\"time\":\"\(ISO8601.format(sample.timestamp))\",\"activity\":[\(activities)],"
        text += "\"confidence\":\"\(sample.confidence.name)\",\"coarse\":\(sample.isCoarse)}\n"
    }

    /// GPX 1.1: one track segment. Dilutions go in `hdop`/`vdop`, the provider in `src`,
    /// speed and course in Garmin's TrackPointExtension (which most tools read), and
    /// measured accuracies in TraceSim's own extension namespace.
    public static func gpx(_ trace: Trace) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="TraceSim" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
            xmlns:tracesim="urn:tracesim:gpx:1">

            """
        text.reserveCapacity(trace.fixes.count * 300)
        // One <trk> per track and one <trkseg> per segment, in the order the source listed
        // them; each segment's fixes stay in time order, so reading the file back by time
        // gives the same fixes.
        var previousTrack: Int?
        for (position, (segment, fixes)) in gpxSegments(trace).enumerated() {
            if position > 0 { text += segment?.track == previousTrack ? "\n" : "</trk>\n" }
            if position == 0 || segment?.track != previousTrack {
                text += "<trk>"
                if let name = segment?.name { text += "<name>\(XMLText.escaped(name))</name>" }
                if let kind = segment?.kind { text += "<type>\(XMLText.escaped(kind))</type>" }
                previousTrack = segment?.track
            }
            text += "<trkseg>\n"
            for index in fixes { appendTrackPoint(trace.fixes[index], to: &text) }
            text += "</trkseg>"
        }
        text += "</trk>\n</gpx>\n"
        return text
    }

    /// The fixes of each segment, segments in the trace's order; one unnamed segment holding
    /// every fix when the trace has a single segment.
    private static func gpxSegments(_ trace: Trace) -> [(segment: TraceSegment?, fixes: [Int])] {
        guard trace.segments.count > 1, trace.fixSegments.count == trace.fixes.count else {
            return [(nil, Array(trace.fixes.indices))]
        }
        var fixesOf = [[Int]](repeating: [], count: trace.segments.count)
        for (index, segment) in trace.fixSegments.enumerated() { fixesOf[Int(segment)].append(index) }
        // A track's segments are written together, tracks in order of first appearance, so
        // segments interleaved by time (TraceSim CSV) come back as the same tracks.
        var trackRank: [Int: Int] = [:]
        for segment in trace.segments where trackRank[segment.track] == nil {
            trackRank[segment.track] = trackRank.count
        }
        let order = trace.segments.indices.filter { !fixesOf[$0].isEmpty }.sorted {
            (trackRank[trace.segments[$0].track] ?? 0, $0) < (trackRank[trace.segments[$1].track] ?? 0, $1)
        }
        return order.map { (trace.segments[$0], fixesOf[$0]) }
    }

    private static func appendTrackPoint(_ fix: Fix, to text: inout String) {
        text +=
            "<trkpt lat=\"\(NumberText.plainDecimal(fix.latitude))\" lon=\"\(NumberText.plainDecimal(fix.longitude))\">"
        if let altitude = fix.altitudeMeters { text += "<ele>\(NumberText.plainDecimal(altitude))</ele>" }
        text += "<time>\(ISO8601.format(fix.timestamp))</time>"
        if fix.provider != .unknown { text += "<src>\(fix.provider.name)</src>" }
        if case .dilution(let hdop)? = fix.horizontalAccuracy {
            text += "<hdop>\(NumberText.plainDecimal(hdop))</hdop>"
        }
        if case .dilution(let vdop)? = fix.verticalAccuracy {
            text += "<vdop>\(Float(vdop))</vdop>"
        }
        var extensions = ""
        if fix.speedMetersPerSecond != nil || fix.courseDegrees != nil {
            extensions += "<gpxtpx:TrackPointExtension>"
            if let speed = fix.speedMetersPerSecond { extensions += "<gpxtpx:speed>\(speed)</gpxtpx:speed>" }
            if let course = fix.courseDegrees { extensions += "<gpxtpx:course>\(course)</gpxtpx:course>" }
            extensions += "</gpxtpx:TrackPointExtension>"
        }
        if case .meters(let meters)? = fix.horizontalAccuracy {
            extensions += "<tracesim:hacc>\(meters)</tracesim:hacc>"
        }
        if case .meters(let meters)? = fix.verticalAccuracy {
            extensions += "<tracesim:vacc>\(Float(meters))</tracesim:vacc>"
        }
        if let accuracy = fix.speedAccuracyMetersPerSecond {
            extensions += "<tracesim:speedAccuracy>\(accuracy)</tracesim:speedAccuracy>"
        }
        if let accuracy = fix.courseAccuracyDegrees {
            extensions += "<tracesim:courseAccuracy>\(accuracy)</tracesim:courseAccuracy>"
        }
        if !extensions.isEmpty { text += "<extensions>\(extensions)</extensions>" }
        text += "</trkpt>\n"
    }

    /// One canonical field's text, or `nil` when the fix lacks it.
    static func value(of field: CanonicalField, in fix: Fix) -> String? {
        switch field {
        case .time: return ISO8601.format(fix.timestamp)
        case .latitude: return NumberText.shortest(fix.latitude)
        case .longitude: return NumberText.shortest(fix.longitude)
        case .altitudeMeters: return fix.altitudeMeters.map(NumberText.shortest)
        case .horizontalAccuracyMeters:
            if case .meters(let value)? = fix.horizontalAccuracy { return NumberText.shortest(value) }
            return nil
        case .hdop:
            if case .dilution(let value)? = fix.horizontalAccuracy { return NumberText.shortest(value) }
            return nil
        case .verticalAccuracyMeters:
            if case .meters(let value)? = fix.verticalAccuracy { return NumberText.shortest(Float(value)) }
            return nil
        case .vdop:
            if case .dilution(let value)? = fix.verticalAccuracy { return NumberText.shortest(Float(value)) }
            return nil
        case .speedMetersPerSecond: return fix.speedMetersPerSecond.map(NumberText.shortest)
        case .speedAccuracyMetersPerSecond: return fix.speedAccuracyMetersPerSecond.map(NumberText.shortest)
        case .courseDegrees: return fix.courseDegrees.map(NumberText.shortest)
        case .courseAccuracyDegrees: return fix.courseAccuracyDegrees.map(NumberText.shortest)
        case .provider: return fix.provider.name
        // Not a property of the fix: written from the trace's segments.
        case .segment: return nil
        }
    }
}
