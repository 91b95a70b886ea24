/// The one way into TraceSim for recorded traces: detects the format and runs its importer.
public enum TraceImporter {
    /// Reads and imports a trace file.
    ///
    /// - Parameters:
    ///   - path: the file, as the user named it (errors quote it back).
    ///   - options: a format to insist on, and dates for undated NMEA.
    /// - Throws: `TraceFileError` when the file cannot be read (exit 66), `TraceFormatError`
    ///   when its content is not a valid trace (exit 65).
    public static func load(path: String, options: ImportOptions = ImportOptions()) throws -> Trace {
        switch try TraceFile.openForImport(path: path) {
        case .mapped(let mapping): return try read(mapping.bytes, name: path, options: options, mapping: mapping)
        case .read(let bytes): return try read(bytes, name: path, options: options)
        }
    }

    /// Imports a trace held in memory.
    ///
    /// - Parameters:
    ///   - bytes: the file's content.
    ///   - name: the name to use in error messages; its extension breaks detection ties.
    ///   - options: a format to insist on, and dates for undated NMEA.
    /// - Throws: `TraceFormatError` when the content is not a valid trace.
    public static func read(
        _ bytes: [UInt8], name: String, options: ImportOptions = ImportOptions()
    ) throws(TraceFormatError) -> Trace {
        try bytes.withUnsafeBufferPointer { buffer throws(TraceFormatError) in
            try read(buffer, name: name, options: options, mapping: nil)
        }
    }

    private static func read(
        _ buffer: UnsafeBufferPointer<UInt8>, name: String, options: ImportOptions, mapping: MappedFile?
    ) throws(TraceFormatError) -> Trace {
        var source = TextSource(file: name, bytes: buffer, mapping: mapping)
        try source.checkIsNotWideText()
        try source.checkIsText()
        let fileName = name.split(separator: "/").last ?? Substring(name)
        let pathExtension =
            fileName.lastIndex(of: ".").map { fileName[fileName.index(after: $0)...].lowercased() } ?? ""
        guard let resolved = options.format ?? FormatDetector.detect(source, pathExtension: pathExtension) else {
            throw TraceFormatError(file: name, line: 1, problem: .unrecognizedFormat)
        }
        source.isLenient = !options.strict
        do throws(TraceFormatError) {
            return try read(source, as: resolved, options: options)
        } catch {
            throw source.located(error)
        }
    }

    static func read(_ source: TextSource, as format: TraceFormat, options: ImportOptions) throws(TraceFormatError)
        -> Trace
    {
        switch format {
        case .nmea, .gnssLoggerNMEA: try NMEAImporter.read(source, format: format, startDate: options.nmeaStartDate)
        case .clLocationJSON: try CLLocationJSONImporter.read(source)
        case .googleTakeout: try GoogleTakeoutImporter.read(source)
        case .gnssLogger: try GnssLoggerImporter.read(source, startDate: options.nmeaStartDate)
        case .columbusCSV: try ColumbusCSVImporter.read(source)
        case .seventyMai: try SeventyMaiImporter.read(source)
        case .canonicalCSV: try CanonicalCSVImporter.read(source)
        case .jsonLines: try JSONLinesImporter.read(source)
        case .gpx10, .gpx11: try GPXImporter.read(source)
        case .tcx: try TCXImporter.read(source)
        case .kml: try KMLImporter.read(source)
        }
    }
}
