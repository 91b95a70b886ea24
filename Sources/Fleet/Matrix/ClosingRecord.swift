import ConfigJSON
import Scenarios

extension Matrix {
    /// The version of the runs schema: the matrix JSON (`"schemaVersion"`) and the JSON Lines
    /// header. Parts of another version are never read: 3 added the closing record, so a part
    /// of version 2 cannot say whether its run finished; 4 measured every run against the
    /// replayed trace, so a run of version 3 has no trace figures for the tables to pool; 5
    /// leaves unobserved time out of every time-based metric, so a run of version 4 measured
    /// its GPS, coverage and gaps over another span and has no observed seconds to pool.
    public static let schemaVersion = 5

    /// Why runs of schema version `version` are not read, or `nil` for `schemaVersion`.
    package static func versionRefusal(_ version: Int) -> String? {
        if version == 4 {
            return "runs of schema version 4, written before unobserved time was left out of the time figures, so "
                + "their GPS, coverage and gaps count hours no input observed; this tracesim reads version "
                + "\(schemaVersion): run the matrix again with it"
        }
        if version == 3 {
            return "runs of schema version 3, written before runs were measured against the replayed trace, so "
                + "they lack the trace figures the tables show; this tracesim reads version \(schemaVersion): "
                + "run the matrix again with it"
        }
        if version < schemaVersion {
            return "runs of schema version \(version), written before runs ended with a closing record, so "
                + "nothing says whether their run finished; this tracesim reads version \(schemaVersion): "
                + "run the matrix again with it"
        }
        if version > schemaVersion {
            return "runs of schema version \(version); this tracesim reads version \(schemaVersion): "
                + "read them with the tracesim that wrote them"
        }
        return nil
    }

    /// What a matrix's runs end with: every input it held accounted for, read or not, and by
    /// being there at all, word that the run finished. The last line of `matrix --format jsonl`
    /// (`"kind": "tracesim-runs-end"`), and the `"end"` of a `--format json` part.
    ///
    /// An input is read (its traces have runs), skipped (it holds no record at all, such as a
    /// header alone, noted and the command still exits 0), or failed (it could not be read or
    /// gave no timed fix, such as NMEA without `--date`: the others still ran and the command
    /// exits 65). Reads are counted; skips and failures are listed with their reasons, so the
    /// record is small however many inputs were read.
    public struct ClosingRecord: Equatable, Sendable {
        /// An input that gave no runs, and why.
        public struct Entry: Equatable, Sendable {
            /// Its place in the identity's inputs, counted from 0 (the JSON counts from 1).
            public var input: Int
            /// Its path, as the identity lists it.
            public var path: String
            /// Why it gave no runs, at most `maximumReasonBytes` of UTF-8.
            public var reason: String

            /// An input with its reason, cut to `maximumReasonBytes` (ending in "…") when longer.
            public init(input: Int, path: String, reason: String) {
                self.input = input
                self.path = path
                self.reason = Self.bounded(reason)
            }

            /// `text` cut at a character boundary so that it and the "…" that marks the cut fit
            /// in `maximumReasonBytes`.
            static func bounded(_ text: String) -> String {
                guard text.utf8.count > maximumReasonBytes else { return text }
                var kept = ""
                var bytes = 0
                let budget = maximumReasonBytes - "…".utf8.count
                for character in text {
                    let size = character.utf8.count
                    guard bytes + size <= budget else { break }
                    kept.append(character)
                    bytes += size
                }
                return kept + "…"
            }
        }

        /// The most UTF-8 bytes a reason keeps: a message naming the file and the line, with
        /// room to spare. It bounds the closing record (see `RunLines.maximumClosingBytes`).
        public static let maximumReasonBytes = 1_024

        /// The reason an input with no record at all is skipped for.
        public static let noRecordsReason = "no records"

        /// How many inputs the record accounts for: those its part holds (every input of a whole run).
        public var inputs: Int
        /// How many of them were read.
        public var read: Int
        /// How many traces the inputs read gave (more than `read` under `--tracks each`).
        public var traces: Int
        /// The inputs skipped for holding no record at all, in input order.
        public var skipped: [Entry]
        /// The inputs that could not be read or gave no timed fix, in input order.
        public var failed: [Entry]

        /// A record of `inputs` inputs, `read` of which gave `traces` traces.
        public init(inputs: Int, read: Int, traces: Int, skipped: [Entry] = [], failed: [Entry] = []) {
            self.inputs = inputs
            self.read = read
            self.traces = traces
            self.skipped = skipped
            self.failed = failed
        }

        /// The whole run's record from its parts' records: what one unsharded run writes.
        public static func merged(_ records: [ClosingRecord]) -> ClosingRecord {
            func byInput(_ entries: [Entry]) -> [Entry] { entries.sorted { $0.input < $1.input } }
            return ClosingRecord(
                inputs: records.map(\.inputs).saturatingSum(), read: records.map(\.read).saturatingSum(),
                traces: records.map(\.traces).saturatingSum(), skipped: byInput(records.flatMap(\.skipped)),
                failed: byInput(records.flatMap(\.failed)))
        }

        /// The closing line's `kind`.
        public static let kind = "tracesim-runs-end"

        // MARK: Reading

        /// The keys of the record, in the order it is written (`kind` first in JSON Lines only).
        static let keys = ["inputs", "read", "traces", "skipped", "failed"]

        /// Reads the record at `node` (JSON path `path`): the members of `keys`, and `kind`
        /// when `isLine`.
        package init(_ node: JSONNode, _ path: String, _ reader: ConfigReader, isLine: Bool) throws(ConfigError) {
            let members = try reader.object(node, path, allowed: (isLine ? ["kind"] : []) + Self.keys)
            func count(_ key: String) throws(ConfigError) -> Int {
                let value = try reader.required(members, key, in: node, path)
                let number = try reader.number(value, "\(path).\(key)", in: 0...9e15)
                guard number == number.rounded() else {
                    throw reader.fail(value, "\(path).\(key)", "expected a whole number")
                }
                return Int(number)
            }
            func entries(_ key: String) throws(ConfigError) -> [Entry] {
                let list = try reader.array(try reader.required(members, key, in: node, path), "\(path).\(key)")
                var entries: [Entry] = []
                for (index, element) in list.enumerated() {
                    let elementPath = "\(path).\(key)[\(index)]"
                    let fields = try reader.object(element, elementPath, allowed: ["input", "path", "reason"])
                    let inputNode = try reader.required(fields, "input", in: element, elementPath)
                    let number = try reader.number(inputNode, "\(elementPath).input", in: 1...9e15)
                    guard number == number.rounded() else {
                        throw reader.fail(inputNode, "\(elementPath).input", "expected a whole number")
                    }
                    let reasonNode = try reader.required(fields, "reason", in: element, elementPath)
                    let reason = try reader.string(reasonNode, "\(elementPath).reason")
                    // Read as written: a longer reason is not one TraceSim writes, and cutting it
                    // here would change the bytes a merge copies.
                    guard reason.utf8.count <= Self.maximumReasonBytes else {
                        throw reader.fail(
                            reasonNode, "\(elementPath).reason", "longer than \(Self.maximumReasonBytes) bytes")
                    }
                    entries.append(
                        Entry(
                            input: Int(number) - 1,
                            path: try reader.string(
                                try reader.required(fields, "path", in: element, elementPath), "\(elementPath).path"),
                            reason: reason))
                    if let previous = entries.dropLast().last, previous.input >= Int(number) - 1 {
                        throw reader.fail(
                            inputNode, "\(elementPath).input", "inputs must be listed in increasing order")
                    }
                }
                return entries
            }
            inputs = try count("inputs")
            read = try count("read")
            traces = try count("traces")
            skipped = try entries("skipped")
            failed = try entries("failed")
        }
    }
}
