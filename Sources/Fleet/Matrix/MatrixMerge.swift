import SimulationCore

extension Matrix {
    /// Why parts cannot be merged, in words naming the parts.
    public struct MergeRefusal: Error, Sendable, CustomStringConvertible {
        /// What is wrong: a shard missing or given twice, parts of different runs, a run held twice.
        public var message: String

        /// `message`, so the refusal prints as the words alone.
        public var description: String { message }
    }

    /// The runs of every part put back in position order: with the schema version and seed,
    /// all that the unsharded run's JSON holds. The runs stay the parts' bytes, copied once
    /// when rendered.
    public struct Merged: Sendable {
        /// The parts' `schemaVersion`.
        public var schemaVersion: Int
        /// The run's `--seed`, or `nil` for each scenario's own.
        public var seed: UInt64?
        /// Each run's JSON object, in position order.
        public var runs: [ArraySlice<UInt8>]
        /// What the parts leave out, when merged with `allowsPartial`: a line per input that
        /// failed, naming its part.
        public var shortfalls: [String] = []
    }

    /// Joins the parts of one sharded run, given in any order: shards 1...N each once, of the
    /// same identity and schema version, holding every run once, and no input that failed
    /// (unless `allowsPartial`: then `shortfalls` names them).
    /// - Throws: `MergeRefusal` naming the first problem.
    /// - Complexity: O(total bytes of the parts + runs).
    public static func merge(_ parts: [MatrixPart], allowsPartial: Bool = false) throws(MergeRefusal) -> Merged {
        let partOfShard = try checkShards(
            parts.map {
                ShardHeader(
                    file: $0.file, identity: $0.identity, schemaVersion: $0.schemaVersion, index: $0.index,
                    count: $0.count)
            })
        let failures = partOfShard.dropFirst().flatMap { number in
            parts[number].closing.failed.map { (part: parts[number], entry: $0) }
        }.sorted { $0.entry.input < $1.entry.input }
        if let first = failures.first, !allowsPartial {
            let others = failures.count - 1
            throw MergeRefusal(
                message:
                    "\(first.part.file): input \(first.entry.input + 1) '\(VisibleText.quoted(first.entry.path))' failed "
                    + "in the run that wrote this part (\(VisibleText.escapingControls(first.entry.reason))), so its runs are missing"
                    + (others > 0 ? ", and \(others) more input\(others == 1 ? "" : "s") failed" : "")
                    + ". Fix it and run the part again, or pass --allow-partial to merge the rest")
        }
        // Every part holds only its own shard's inputs (checked as it was read), in order, so
        // the runs in input order are each part's runs interleaved by input.
        var cursors = [Int](repeating: 0, count: parts.count)
        var runs: [ArraySlice<UInt8>] = []
        runs.reserveCapacity(parts.reduce(0) { $0 + $1.runs.count })
        while true {
            var next: (part: Int, input: Int)?
            for (number, part) in parts.enumerated() where cursors[number] < part.inputs.count {
                let input = part.inputs[cursors[number]]
                if next.map({ input < $0.input }) ?? true { next = (number, input) }
            }
            guard let (number, input) = next else { break }
            let part = parts[number]
            while cursors[number] < part.inputs.count, part.inputs[cursors[number]] == input {
                runs.append(part.bytes[part.runs[cursors[number]]])
                cursors[number] += 1
            }
        }
        return Merged(
            schemaVersion: parts[0].schemaVersion, seed: parts[0].identity.seed, runs: runs,
            shortfalls: failures.map {
                "\($0.part.file): input \($0.entry.input + 1) '\(VisibleText.quoted($0.entry.path))' failed in its run "
                    + "(\(VisibleText.escapingControls($0.entry.reason))): what follows leaves it out"
            })
    }

    /// What the shard checks read of a part, JSON or JSON Lines.
    struct ShardHeader {
        var file: String
        var identity: RunIdentity
        var schemaVersion: Int
        var index: Int
        var count: Int
    }

    /// Refuses parts that are not shards 1...N of one run, each once: identities, schema
    /// versions and shard counts must agree.
    /// - Returns: for each shard number (1...N, index 0 unused), the part that gives it.
    @discardableResult
    static func checkShards(_ parts: [ShardHeader]) throws(MergeRefusal) -> [Int] {
        guard let first = parts.first else { throw MergeRefusal(message: "no parts") }
        for part in parts.dropFirst() {
            if let difference = part.identity.difference(from: first.identity) {
                throw MergeRefusal(
                    message: "\(part.file): not a shard of the same matrix as \(first.file): \(difference)")
            }
            if part.schemaVersion != first.schemaVersion {
                throw MergeRefusal(
                    message: "\(part.file): not a shard of the same matrix as \(first.file): schema version "
                        + "\(part.schemaVersion) here and \(first.schemaVersion) there")
            }
            if part.count != first.count {
                throw MergeRefusal(
                    message: "\(part.file): shard \(part.index) of \(part.count), but \(first.file) is shard "
                        + "\(first.index) of \(first.count)")
            }
        }
        // Which file gave each shard: a second file for the same shard is named with the first.
        var given = [Int](repeating: -1, count: first.count + 1)
        for (number, part) in parts.enumerated() {
            if given[part.index] >= 0 {
                throw MergeRefusal(
                    message: "shard \(part.index) given twice: \(parts[given[part.index]].file) and \(part.file)")
            }
            given[part.index] = number
        }
        let missing = (1...first.count).filter { given[$0] < 0 }
        guard missing.isEmpty else {
            let listed = missing.prefix(20).map(String.init).joined(separator: ", ")
            throw MergeRefusal(
                message: "shards of \(first.count) are needed once each; missing: \(listed)"
                    + (missing.count > 20 ? " and \(missing.count - 20) more" : ""))
        }
        return given
    }

    /// The matrix JSON's `"seed"`: the number, or `null` when each scenario keeps its own. A part
    /// is checked against its identity with it.
    package static func seedText(_ seed: UInt64?) -> String {
        seed.map { String(Int(truncatingIfNeeded: $0)) } ?? "null"
    }
}
