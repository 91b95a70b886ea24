import Foundation
import Traces

/// Writes a generated drive of any length to a file in slices, so a ten-million-fix trace
/// never exists as one string: each slice is rendered by the format's own writer, and only
/// the first slice's header and the last slice's footer are kept.
public enum HugeTraceWriter {
    /// Fixes rendered at a time.
    static let sliceFixes = 200_000

    /// Writes `fixes` generated fixes (seed `seed`) as `format` to `path`.
    public static func write(_ format: BenchFormat, fixes: Int, seed: UInt64, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw CocoaError(.fileWriteNoPermission) }
        defer { try? handle.close() }
        let drive = TraceGenerator.drive(fixes: fixes, seed: seed)
        var start = 0
        while start < drive.count {
            let end = min(start + sliceFixes, drive.count)
            let text = format.render(Array(drive[start..<end]))
            let (header, body, footer) = split(text, format)
            var slice = start == 0 ? header : ""
            slice += body
            if end == drive.count { slice += footer }
            try handle.write(contentsOf: Data(slice.utf8))
            start = end
        }
    }

    /// A rendered slice's header, records and footer.
    private static func split(_ text: String, _ format: BenchFormat) -> (Substring, Substring, Substring) {
        switch format {
        case .csv:
            // A comment line, then the column header, then records.
            var headerEnd = text.startIndex
            while headerEnd < text.endIndex {
                let lineEnd = text[headerEnd...].firstIndex(of: "\n").map(text.index(after:)) ?? text.endIndex
                let isComment = text[headerEnd] == "#"
                headerEnd = lineEnd
                if !isComment { break }
            }
            return (text[..<headerEnd], text[headerEnd...], "")
        case .gpx:
            let bodyStart = text.range(of: "<trkpt")?.lowerBound ?? text.endIndex
            let bodyEnd = text.range(of: "</trkseg>", options: .backwards)?.lowerBound ?? text.endIndex
            return (text[..<bodyStart], text[bodyStart..<bodyEnd], text[bodyEnd...])
        case .jsonl, .nmea, .gnssLogger:
            // GnssLogger's header comments repeat harmlessly; the others have none.
            return ("", text[...], "")
        }
    }
}
