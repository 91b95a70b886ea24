import ConfigJSON
import Scenarios
import SimulationCore

extension Matrix {
    /// The runs of the JSON Lines parts of one sharded run, in the unsharded run's order, read
    /// as they are handed over: the parts are read side by side, one line of each in memory,
    /// never all the runs. A single whole run (a file without `shard`) is read through as is.
    ///
    /// A part is whole when it ends with its closing record and no input of it failed; the
    /// merge refuses any other at its end (runs already handed over stay handed over, and the
    /// whole run's closing record, `closing`, is never made), unless `allowsPartial`.
    public struct LinesMerge {
        /// The whole run's identity: every input with the size and hash the part that holds it
        /// read, as the unsharded run lists them.
        public let identity: RunIdentity
        /// The parts' `schemaVersion`.
        public let schemaVersion: Int
        /// The whole run's closing record, once `next()` has returned `nil`: what one unsharded
        /// run ends with. `nil` when a part had none (read with `allowsPartial`).
        public private(set) var closing: ClosingRecord?
        /// What the parts leave out, once `next()` has returned `nil`, when read with
        /// `allowsPartial`: a line per part that ended without its closing record and per
        /// input that failed, naming the part and the input.
        public private(set) var shortfalls: [String] = []
        private let allowsPartial: Bool
        private var isAccounted = false

        private let parts: [RunLines]
        /// The part that holds each shard (1-based; index 0 unused).
        private let partOfShard: [Int]
        /// Where each part's reading stands.
        private var states: [State]
        /// The input whose runs come next.
        private var input = 0

        private enum State {
            /// The part's next line is not read yet.
            case unread
            /// The part's next run, read and waiting for its input's turn.
            case waiting(RunLines.Run)
            /// The part has no more runs (and was checked to end well).
            case finished
        }

        /// Checks that `parts` are shards 1...N of one run, each once (or one whole run alone).
        /// - Parameters:
        ///   - parts: the parts to merge, in any order.
        ///   - allowsPartial: hand over the runs of parts that are not whole (open them
        ///     with `allowsPartial` too), saying what they leave out in `shortfalls`.
        /// - Throws: `MergeRefusal` naming the first problem.
        /// - Complexity: O(parts + inputs): no run is read yet.
        public init(_ parts: [RunLines], allowsPartial: Bool = false) throws(MergeRefusal) {
            self.allowsPartial = allowsPartial
            guard let first = parts.first else { throw MergeRefusal(message: "no parts") }
            if let whole = parts.first(where: { $0.shard == nil }) {
                guard parts.count == 1 else {
                    throw MergeRefusal(
                        message: "\(whole.file): a whole run, not a shard ('tracesim matrix' without --shard): "
                            + "give it alone, or the parts of one sharded run")
                }
                partOfShard = [0, 0]
                identity = first.identity
            } else {
                partOfShard = try checkShards(
                    parts.map {
                        ShardHeader(
                            file: $0.file, identity: $0.identity, schemaVersion: $0.schemaVersion,
                            index: $0.shard?.index ?? 1, count: $0.shard?.count ?? 1)
                    })
                var identity = first.identity
                // Each input as the part that read it lists it; the others list the path alone.
                for index in identity.traces.indices {
                    identity.traces[index] =
                        parts[partOfShard[index % (partOfShard.count - 1) + 1]].identity
                        .traces[index]
                }
                self.identity = identity
            }
            schemaVersion = first.schemaVersion
            self.parts = parts
            states = Array(repeating: .unread, count: parts.count)
        }

        /// The next run in the whole run's order (input order, and each input's runs in the order
        /// its part gives them), or `nil` once every part has been read to its end.
        /// - Throws: `ConfigError` naming the part, and line, of the first run that is invalid or
        ///   out of place, or of a part that ends badly; unless `allowsPartial`, of a part without
        ///   its closing record or the earliest input that failed.
        /// - Complexity: O(the run's line + inputs with no run before it).
        public mutating func next() throws(ConfigError) -> RunLines.Run? {
            let shards = partOfShard.count - 1
            while input < identity.traces.count {
                let part = partOfShard[input % shards + 1]
                if case .unread = states[part] {
                    states[part] = try parts[part].next().map(State.waiting) ?? .finished
                }
                if case .waiting(let run) = states[part], run.input == input {
                    states[part] = .unread
                    return run
                }
                input += 1
            }
            // Every part must end where its inputs do, and end well (no run cut short).
            for part in parts.indices {
                if case .unread = states[part] {
                    states[part] = try parts[part].next().map(State.waiting) ?? .finished
                }
                if case .waiting(let run) = states[part] {
                    throw ConfigError(
                        file: parts[part].file, line: run.line, path: "$",
                        message: "a run after the last input's runs")
                }
            }
            if !isAccounted { try account() }
            return nil
        }

        /// Once every part is read: the whole run's closing record, or what the parts leave out.
        private mutating func account() throws(ConfigError) {
            isAccounted = true
            // Parts in shard order, failures in input order: the same words however the parts
            // were given.
            let ordered = Array(partOfShard.dropFirst())
            let failures = ordered.flatMap { part in
                (parts[part].closing?.failed ?? []).map { (part: part, entry: $0) }
            }.sorted { $0.entry.input < $1.entry.input }
            if let first = failures.first, !allowsPartial {
                let part = parts[first.part]
                let others = failures.count - 1
                throw ConfigError(
                    file: part.file, line: part.closingLine, path: "$.failed",
                    message:
                        "input \(first.entry.input + 1) '\(VisibleText.quoted(first.entry.path))' failed in the run "
                        + "that wrote this part (\(VisibleText.escapingControls(first.entry.reason))), so its runs are missing"
                        + (others > 0 ? ", and \(others) more input\(others == 1 ? "" : "s") failed" : "")
                        + ". Fix it and run the part again, or pass --allow-partial to read the rest")
            }
            for part in ordered {
                guard let unfinished = parts[part].unfinished else { continue }
                let input = unfinished.firstUnaccounted.map {
                    "input \($0 + 1) '\(VisibleText.quoted(identity.traces[$0].path))' is the first it does not account for"
                }
                shortfalls.append(
                    "\(parts[part].file): ends at line \(unfinished.lastLine) without its closing record (its run did "
                        + "not finish)" + (input.map { "; \($0)" } ?? "")
                        + ": what follows holds only the runs it has")
            }
            for failure in failures {
                shortfalls.append(
                    "\(parts[failure.part].file): input \(failure.entry.input + 1) "
                        + "'\(VisibleText.quoted(failure.entry.path))' failed in its run "
                        + "(\(VisibleText.escapingControls(failure.entry.reason))): what follows leaves it out")
            }
            let records = parts.compactMap(\.closing)
            if records.count == parts.count { closing = ClosingRecord.merged(records) }
        }
    }
}
