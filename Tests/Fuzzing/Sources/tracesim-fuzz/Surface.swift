import Engine
import Permissions
import Scenarios
import Traces

/// Every file TraceSim reads from a user, one fuzzing harness each.
///
/// A harness feeds the bytes to the same parser the command line uses. A parser may refuse
/// the input with `TraceFormatError` or `ConfigError` (that is its job); anything else is a finding: a crash,
/// a hang, a leak, or an accepted input that breaks an invariant checked afterwards.
enum Surface: String, CaseIterable {
    /// Format detection followed by whichever importer it picks.
    case detect
    case importNMEA = "import-nmea"
    case importGnssLoggerNMEA = "import-gnsslogger-nmea"
    case importGnssLogger = "import-gnsslogger"
    case importCLLocationJSON = "import-cllocation-json"
    case importGoogleTakeout = "import-google-takeout"
    case importColumbusCSV = "import-columbus-csv"
    case importSeventyMai = "import-70mai"
    case importCanonicalCSV = "import-tracesim-csv"
    case importJSONLines = "import-tracesim-jsonl"
    case importGPX10 = "import-gpx-1.0"
    case importGPX11 = "import-gpx-1.1"
    case importTCX = "import-tcx"
    case importKML = "import-kml"
    case scenario
    case userScript = "user-script"
    case device
    case population
    case expectations
    case geojson
    /// The JSON parts `merge` joins, separated by ASCII record separators (0x1E).
    case merge
    /// Whole argument vectors, separated by NUL bytes, run in a scratch folder.
    case commandLine = "cli"
    /// A trace as a file: gzip members (the seeds are compressed) and plain text alike, read by
    /// path as the command line reads it, through the inflater and the spool.
    case file
    /// An engine's standard output, read by the protocol's reader into a run's client state
    /// (`EngineChecks`), in-process.
    case engine
    /// TraceSim's lines, read by the serving side (`serve-engine`), in-process.
    case serveEngine = "serve-engine"

    /// The importer a trace harness forces, so each one is fuzzed even where detection
    /// would pick another.
    var forcedFormat: TraceFormat? {
        rawValue.hasPrefix("import-") ? TraceFormat(rawValue: String(rawValue.dropFirst("import-".count))) : nil
    }

    /// Parses `bytes` and checks what the parser accepted.
    func exercise(_ bytes: [UInt8]) {
        do {
            switch self {
            case .scenario:
                let parsed = try ScenarioFile.parse(bytes, file: "fuzz.json")
                ReplayChecks.replay(ReplayChecks.smallTrace, parsed.scenario)
            case .userScript: _ = try UserScript.parse(bytes, file: "fuzz.json")
            case .device: _ = try DeviceSetup.parse(bytes, file: "fuzz.json")
            case .population: _ = try Population.parse(bytes, file: "fuzz.json")
            case .expectations: _ = try Expectations.parse(bytes, file: "fuzz.json")
            case .geojson: GeofenceChecks.check(try GeofenceLoader.load(bytes, file: "fuzz.geojson"))
            case .merge: CommandLineChecks.merge(bytes)
            case .commandLine: CommandLineChecks.runArguments(bytes)
            case .file: TraceChecks.check(try FileChecks.load(bytes))
            case .engine: EngineChecks.replay(bytes)
            case .serveEngine: EngineChecks.serve(bytes)
            default:
                let options = ImportOptions(format: forcedFormat)
                let trace = try TraceImporter.read(bytes, name: "fuzz", options: options)
                TraceChecks.check(trace)
            }
        } catch {
            // A refusal must say where and why; an empty message would leave the user guessing.
            if String(describing: error).isEmpty { fatalError("a refusal without a message") }
        }
    }
}
