/// The one way into TraceSim for recorded traces: detects the format and runs its importer.
public enum TraceImporter {
    /// Reads and imports a trace file.
    ///
    /// A gzip-compressed file (told by its first bytes, whatever its name) is inflated first, and
    /// its format detected from the inflated content. `-` (`TraceFile.standardInputPath`) reads
    /// standard input, which errors call `<stdin>`.
    ///
    /// - Parameters:
    ///   - path: the file, as the user named it (errors quote it back).
    ///   - options: a format to insist on, and dates for undated NMEA.
    /// - Throws: `TraceFileError` when the file cannot be read (exit 66), `TraceFormatError`
    ///   when its content is not a valid trace or not a valid gzip stream (exit 65).
    public static func load(path: String, options: ImportOptions = ImportOptions()) throws -> Trace {
        let name = TraceFile.displayName(forPath: path)
        let check = InflatedPrefixCheck(isStrict: options.strict) { (prefix) -> TraceFormatError? in
            do throws(TraceFormatError) {
                _ = try read(prefix.bytes, name: name, options: options, mapping: prefix)
                return nil
            } catch {
                return error
            }
        }
        switch try TraceFile.openForImport(path: path, check: check) {
        case .mapped(let mapping): return try read(mapping.bytes, name: name, options: options, mapping: mapping)
        case .read(let bytes): return try read(bytes, name: name, options: options)
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
        guard let resolved = options.format ?? FormatDetector.detect(source, pathExtension: pathExtension(of: name))
        else {
            throw TraceFormatError(file: name, line: 1, problem: .unrecognizedFormat)
        }
        source.isLenient = !options.strict
        let configured = source
        do throws(TraceFormatError) {
            return try UntimedRuns.importing(file: name, options: options) { () throws(TraceFormatError) in
                try read(configured, as: resolved, options: options)
            }
        } catch {
            throw configured.located(error)
        }
    }

    /// The extension that breaks detection ties, lowercased: the one before a trailing `.gz`,
    /// since a compressed file's content is what is detected (`route.gpx.gz` is `gpx`).
    static func pathExtension(of name: String) -> String {
        var fileName = name.split(separator: "/").last ?? Substring(name)
        if fileName.lowercased().hasSuffix(".gz") { fileName = fileName.dropLast(3) }
        return fileName.lastIndex(of: ".").map { fileName[fileName.index(after: $0)...].lowercased() } ?? ""
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
        case .canonicalCSV: try CanonicalCSVImporter.read(source, trackOrder: options.trackOrder)
        case .jsonLines: try JSONLinesImporter.read(source, trackOrder: options.trackOrder)
        case .gpx10, .gpx11: try GPXImporter.read(source, trackOrder: options.trackOrder)
        case .tcx: try TCXImporter.read(source, trackOrder: options.trackOrder)
        case .kml: try KMLImporter.read(source, trackOrder: options.trackOrder)
        }
    }
}
