/// Every trace format TraceSim reads, named by the token `inspect` prints.
public enum TraceFormat: String, CaseIterable, Sendable {
    /// GPX 1.0 (`http://www.topografix.com/GPX/1/0`).
    case gpx10 = "gpx-1.0"
    /// GPX 1.1 (`http://www.topografix.com/GPX/1/1`).
    case gpx11 = "gpx-1.1"
    /// NMEA 0183 sentences, optionally with gpsd's `#` comment lines.
    case nmea = "nmea"
    /// NMEA 0183 wrapped in Android GnssLogger `NMEA,<sentence>,<unix ms>` records.
    case gnssLoggerNMEA = "gnsslogger-nmea"
    /// Android GnssLogger CSV `Fix` records (the 1.4 and the v3 layouts).
    case gnssLogger = "gnsslogger"
    /// A JSON array of iOS CLLocation dumps.
    case clLocationJSON = "cllocation-json"
    /// Garmin Training Center XML.
    case tcx = "tcx"
    /// KML with `gx:Track`.
    case kml = "kml"
    /// Google Takeout semantic location history.
    case googleTakeout = "google-takeout"
    /// Columbus / Visiontac V-900-family logger CSV.
    case columbusCSV = "columbus-csv"
    /// 70mai dash-cam GPS log.
    case seventyMai = "70mai"
    /// TraceSim's header-mapped canonical CSV.
    case canonicalCSV = "tracesim-csv"
    /// TraceSim's JSON Lines interchange format.
    case jsonLines = "tracesim-jsonl"
}

/// Where a trace came from.
public struct TraceProvenance: Sendable, Equatable {
    /// The detected format.
    public var format: TraceFormat
    /// The recording device, when the file names it.
    public var device: String?

    /// Creates a provenance record.
    public init(format: TraceFormat, device: String? = nil) {
        self.format = format
        self.device = device
    }
}
