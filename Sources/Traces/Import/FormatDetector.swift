/// Recognises a trace format from the file's content; the extension only breaks ties.
///
/// Looks at the first few kilobytes: the XML root element, the JSON shape, or the first
/// record of a line format. Never reads past `sniffBytes`, so detection costs the same for
/// a 3 KB file and a 3 GB one.
enum FormatDetector {
    static let sniffBytes = 16 * 1024

    /// The format the content shows; when it shows none, the one the extension names, so
    /// that a damaged `.gpx` gets a GPX error rather than "not a trace format".
    static func detect(_ source: TextSource, pathExtension: String) -> TraceFormat? {
        detectFromContent(source) ?? formatsByExtension[pathExtension]
    }

    /// Extensions that name exactly one format.
    static let formatsByExtension: [String: TraceFormat] = [
        "gpx": .gpx11, "nmea": .nmea, "tcx": .tcx, "kml": .kml, "jsonl": .jsonLines,
    ]

    private static func detectFromContent(_ source: TextSource) -> TraceFormat? {
        let head = String(decoding: source.slice(0, min(source.bytes.count, sniffBytes)), as: UTF8.self)
        let trimmed = head.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = trimmed.first else { return nil }

        if first == "<" { return detectXML(String(trimmed)) }
        if first == "[" {
            return trimmed.contains("\"latitude\"") || trimmed.contains("\"lat\"") ? .clLocationJSON : nil
        }
        if first == "{" {
            if trimmed.contains("\"timelineObjects\"") { return .googleTakeout }
            let firstLine = trimmed.prefix { $0 != "\n" }
            if firstLine.contains("\"lat\"") || firstLine.contains("\"time\"") { return .jsonLines }
            return nil
        }

        // `isNewline` also matches "\r\n", which Swift treats as one Character. Lines are
        // cut one at a time: the first decisive one ends the search, and splitting the whole
        // head up front cost more than importing a small file's first thousand fixes.
        var rest = trimmed
        var sawHash = false
        while !rest.isEmpty {
            let end = rest.firstIndex(where: \.isNewline) ?? rest.endIndex
            let line = rest[rest.startIndex..<end]
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
            if line.isEmpty { continue }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            if line.hasPrefix("#") {
                sawHash = true
                continue
            }
            if line.hasPrefix("$V0") { return .seventyMai }
            if line.hasPrefix("$") || line.hasPrefix("!") { return .nmea }
            if line.hasPrefix("NMEA,") { return sawHash && head.contains("Fix,") ? .gnssLogger : .gnssLoggerNMEA }
            if sawHash, let record = line.split(separator: ",", maxSplits: 1).first,
                gnssLoggerRecords.contains(String(record))
            {
                return .gnssLogger
            }
            if line.hasPrefix("INDEX,TAG,DATE,TIME") { return .columbusCSV }
            if line.hasPrefix("time,") || line.contains(",time,") || line.hasSuffix(",time") {
                return line.contains("lat") ? .canonicalCSV : nil
            }
            return nil
        }
        return nil
    }

    /// GnssLogger's record types (the first CSV field of each line).
    static let gnssLoggerRecords: Set<String> = [
        "Fix", "Raw", "Nav", "Status", "Agc", "UncalAccel", "Accel", "UncalGyro", "Gyro", "UncalMag",
        "Mag", "OrientationDeg", "GameRotationVector", "RotationVector",
    ]

    private static func detectXML(_ head: String) -> TraceFormat? {
        // The root element is the first tag that is not a declaration, comment or DOCTYPE.
        var rest = Substring(head)
        while let open = rest.firstIndex(of: "<") {
            let tag = rest[rest.index(after: open)...]
            if tag.hasPrefix("?") || tag.hasPrefix("!") {
                guard let close = tag.firstIndex(of: ">") else { return nil }
                rest = tag[tag.index(after: close)...]
                continue
            }
            let name = tag.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            let localName = name.split(separator: ":").last.map(String.init) ?? ""
            switch localName {
            case "gpx":
                let rootTag = tag.prefix { $0 != ">" }
                return rootTag.contains("GPX/1/0") || rootTag.contains("version=\"1.0\"") ? .gpx10 : .gpx11
            case "TrainingCenterDatabase": return .tcx
            case "kml": return .kml
            default: return nil
            }
        }
        return nil
    }
}
