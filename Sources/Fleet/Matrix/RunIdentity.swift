import ConfigJSON
import SimulationCore
import Traces

/// What identifies a whole matrix run, written at the head of every part of a sharded run:
/// `Matrix.merge` joins only parts whose identities agree, and names the first difference
/// otherwise.
///
/// Inputs are named as given on the command line and fingerprinted by their bytes
/// (`ContentHash`), so two parts agree when they read the same files, whatever machine or
/// folder they ran in. A trace entry without a hash is one the part did not read: today every
/// part reads every trace (shards are slices of runs), but a part sharded by trace will hash
/// only the traces it holds, and merge compares the hashes two parts both have.
public struct RunIdentity: Equatable, Sendable {
    /// A file the run read: its path as given, and its size and hash when this part read it.
    public struct Input: Equatable, Sendable {
        /// The path as given on the command line.
        public var path: String
        /// The file's size, when this part read it.
        public var bytes: Int?
        /// The file's hash, when this part read it.
        public var hash: ContentHash?

        /// A file and, when it was read, its size and hash.
        public init(path: String, bytes: Int? = nil, hash: ContentHash? = nil) {
            self.path = path
            self.bytes = bytes
            self.hash = hash
        }
    }

    /// A scenario, in `--scenarios` order: a preset by name, or a file and the geofences it names.
    public struct ScenarioEntry: Equatable, Sendable {
        /// The scenario's name, as each run's `"scenario"` says.
        public var name: String
        /// The scenario file, for a scenario read from one.
        public var file: Input?
        /// The geofences the scenario file names.
        public var fences: Input?

        /// A preset by `name`, or a scenario read from `file` with the geofences it names.
        public init(name: String, file: Input? = nil, fences: Input? = nil) {
            self.name = name
            self.file = file
            self.fences = fences
        }
    }

    /// The TraceSim version of the writer: parts of two versions are never joined.
    public var version: String
    /// The traces replayed, in order (a trace that failed to load is in no output, so not here).
    public var traces: [Input]
    /// The scenarios, in order.
    public var scenarios: [ScenarioEntry]
    /// `--seed`, or `nil` for each scenario's own.
    public var seed: UInt64?
    /// `--fences`.
    public var fences: Input?
    /// `--date` as given: it changes what the same bytes import as.
    public var date: String?
    /// `--input-format` as given: it changes what the same bytes import as.
    public var inputFormat: String?
    /// `--tracks` when not the default `time`: it changes which traces the same files give.
    /// Written only when given, so parts of a default run read as they always have.
    public var tracks: String?
    /// `--assume-rate`: it changes which fixes the same bytes give. Written, like `tracks`,
    /// only when given.
    public var assumeRate: Double?
    /// `--strict`: it changes which fixes the same bytes give. Written only when given.
    public var strict = false
    /// `--noise` values as given, in order: they change every fix the same bytes replay as.
    /// Written only when given.
    public var noise: [String] = []

    // MARK: Reading

    /// An identity from its parts, as a run that writes a part fills it in.
    public init(
        version: String = TraceSimVersion.current, traces: [Input], scenarios: [ScenarioEntry], seed: UInt64?,
        fences: Input?, date: String?,
        inputFormat: String?, tracks: String? = nil, assumeRate: Double? = nil, strict: Bool = false,
        noise: [String] = []
    ) {
        self.version = version
        self.traces = traces
        self.scenarios = scenarios
        self.seed = seed
        self.fences = fences
        self.date = date
        self.inputFormat = inputFormat
        self.tracks = tracks
        self.assumeRate = assumeRate
        self.strict = strict
        self.noise = noise
    }

    /// Reads the identity at `node` (JSON path `path`).
    package init(_ node: JSONNode, _ path: String, _ reader: ConfigReader) throws(ConfigError) {
        let members = try reader.object(
            node, path,
            allowed: [
                "tracesim", "traces", "scenarios", "seed", "fences", "date", "inputFormat", "tracks", "assumeRate",
                "strict", "noise",
            ])
        func required(_ key: String) throws(ConfigError) -> JSONNode {
            try reader.required(members, key, in: node, path)
        }
        func optionalString(_ key: String) throws(ConfigError) -> String? {
            let value = try required(key)
            if case .null = value.value { return nil }
            return try reader.string(value, "\(path).\(key)")
        }
        version = try reader.string(try required("tracesim"), "\(path).tracesim")
        traces = []
        for (index, trace) in try reader.array(try required("traces"), "\(path).traces").enumerated() {
            traces.append(try Self.input(trace, "\(path).traces[\(index)]", reader))
        }
        scenarios = []
        for (index, entry) in try reader.array(try required("scenarios"), "\(path).scenarios").enumerated() {
            let entryPath = "\(path).scenarios[\(index)]"
            let fields = try reader.object(entry, entryPath, allowed: ["name", "file", "fences"])
            scenarios.append(
                ScenarioEntry(
                    name: try reader.string(
                        try reader.required(fields, "name", in: entry, entryPath), "\(entryPath).name"),
                    file: try fields["file"].map { (node) throws(ConfigError) in
                        try Self.input(node, "\(entryPath).file", reader)
                    },
                    fences: try fields["fences"].map { (node) throws(ConfigError) in
                        try Self.input(node, "\(entryPath).fences", reader)
                    }))
        }
        if let text = try optionalString("seed") {
            guard let value = UInt64(text) else {
                throw reader.fail(try required("seed"), "\(path).seed", "expected a whole number from 0 to 2^64-1")
            }
            seed = value
        } else {
            seed = nil
        }
        let fencesNode = try required("fences")
        if case .null = fencesNode.value {
            fences = nil
        } else {
            fences = try Self.input(fencesNode, "\(path).fences", reader)
        }
        date = try optionalString("date")
        inputFormat = try optionalString("inputFormat")
        tracks = try members["tracks"].map { (node) throws(ConfigError) in
            try reader.string(node, "\(path).tracks")
        }
        assumeRate = try members["assumeRate"].map { (node) throws(ConfigError) in
            try reader.number(node, "\(path).assumeRate", in: 0...1e6)
        }
        strict =
            try members["strict"].map { (node) throws(ConfigError) in
                try reader.bool(node, "\(path).strict")
            } ?? false
        noise = []
        if let node = members["noise"] {
            for (index, value) in try reader.array(node, "\(path).noise").enumerated() {
                noise.append(try reader.string(value, "\(path).noise[\(index)]"))
            }
        }
    }

    private static func input(_ node: JSONNode, _ path: String, _ reader: ConfigReader) throws(ConfigError)
        -> Input
    {
        let fields = try reader.object(node, path, allowed: ["path", "bytes", "hash"])
        let file = try reader.string(try reader.required(fields, "path", in: node, path), "\(path).path")
        let bytes = try fields["bytes"].map { (value) throws(ConfigError) -> Int in
            let count = try reader.number(value, "\(path).bytes", in: 0...9e15)
            guard count == count.rounded() else { throw reader.fail(value, "\(path).bytes", "expected a whole number") }
            return Int(count)
        }
        let hash = try fields["hash"].map { (value) throws(ConfigError) -> ContentHash in
            let text = try reader.string(value, "\(path).hash")
            guard let hash = ContentHash(text: text) else {
                throw reader.fail(value, "\(path).hash", "expected '\(ContentHash.algorithm):' and 16 hex digits")
            }
            return hash
        }
        guard (bytes == nil) == (hash == nil) else {
            throw reader.fail(node, path, "give both 'bytes' and 'hash', or neither")
        }
        return Input(path: file, bytes: bytes, hash: hash)
    }

    // MARK: Comparing

    /// The first way `self` (one part's) differs from `other` (the part it is compared with), in
    /// words: "scenario 2 is 'denied' here and 'allow-once' there"; `nil` when they agree.
    public func difference(from other: RunIdentity) -> String? {
        if version != other.version {
            return "written by TraceSim \(version) here and \(other.version) there"
        }
        if traces.count != other.traces.count {
            return "\(traces.count) traces here and \(other.traces.count) there"
        }
        for (index, (here, there)) in zip(traces, other.traces).enumerated() {
            if let difference = Self.difference(here, there, "trace \(index + 1)") { return difference }
        }
        if scenarios.count != other.scenarios.count {
            return "\(scenarios.count) scenarios here and \(other.scenarios.count) there"
        }
        for (index, (here, there)) in zip(scenarios, other.scenarios).enumerated() {
            let label = "scenario \(index + 1)"
            if here.name != there.name { return "\(label) is '\(here.name)' here and '\(there.name)' there" }
            if let difference = Self.difference(here.file, there.file, "\(label) '\(here.name)' file") {
                return difference
            }
            if let difference = Self.difference(here.fences, there.fences, "\(label) '\(here.name)' geofences") {
                return difference
            }
        }
        if seed != other.seed { return "--seed is \(Self.text(seed)) here and \(Self.text(other.seed)) there" }
        if let difference = Self.difference(fences, other.fences, "--fences") { return difference }
        if date != other.date { return "--date is \(Self.text(date)) here and \(Self.text(other.date)) there" }
        if inputFormat != other.inputFormat {
            return "--input-format is \(Self.text(inputFormat)) here and \(Self.text(other.inputFormat)) there"
        }
        if tracks != other.tracks {
            return "--tracks is \(Self.text(tracks ?? "time")) here and \(Self.text(other.tracks ?? "time")) there"
        }
        if assumeRate != other.assumeRate {
            return "--assume-rate is \(Self.rate(assumeRate)) here and \(Self.rate(other.assumeRate)) there"
        }
        if strict != other.strict {
            return
                "--strict is \(strict ? "given" : "not given") here and \(other.strict ? "given" : "not given") there"
        }
        if noise != other.noise {
            func given(_ values: [String]) -> String {
                values.isEmpty ? "not given" : values.map { Self.text($0) }.joined(separator: " ")
            }
            return "--noise is \(given(noise)) here and \(given(other.noise)) there"
        }
        return nil
    }

    private static func difference(_ here: Input?, _ there: Input?, _ label: String) -> String? {
        switch (here, there) {
        case (nil, nil): return nil
        case (let here?, nil): return "\(label) is '\(VisibleText.quoted(here.path))' here and none there"
        case (nil, let there?): return "\(label) is none here and '\(VisibleText.quoted(there.path))' there"
        case (let here?, let there?): return difference(here, there, label)
        }
    }

    private static func difference(_ here: Input, _ there: Input, _ label: String) -> String? {
        if here.path != there.path {
            return "\(label) is '\(VisibleText.quoted(here.path))' here and '\(VisibleText.quoted(there.path))' there"
        }
        // A part that did not read a file has nothing to compare its content with.
        guard let hereHash = here.hash, let thereHash = there.hash else { return nil }
        if here.bytes != there.bytes || hereHash != thereHash {
            return
                "\(label) '\(VisibleText.quoted(here.path))' has other content: \(here.bytes ?? 0) bytes, \(hereHash.text) here and "
                + "\(there.bytes ?? 0) bytes, \(thereHash.text) there"
        }
        return nil
    }

    private static func rate(_ hertz: Double?) -> String {
        hertz.map { "'\(NumberText.json($0)) Hz'" } ?? "not given"
    }

    private static func text(_ value: (some CustomStringConvertible)?) -> String {
        value.map { "'\($0)'" } ?? "not given"
    }
}
