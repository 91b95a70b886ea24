import BenchmarkKit
import Foundation
import Traces

/// What every suite shares: the options, the generated inputs, the peers and the rows so far.
final class Bench {
    let options: Options
    let peers: PeerRunner?
    private(set) var rows: [BenchmarkRow] = []
    /// Problems that make the run fail at the end: wrong answers, failed peers.
    private(set) var failures: [String] = []

    /// Bumped whenever the generators change, so stale inputs on disk are never reused.
    static let generatorVersion = 1

    init(options: Options) {
        self.options = options
        peers = options.python.map {
            PeerRunner(python: $0, scripts: options.root + "/Benchmarks/peers", plan: options.plan)
        }
    }

    func record(_ row: BenchmarkRow) {
        rows.append(row)
        let peers = row.peers.map { "\($0.peer) \(BenchmarkReport.ratio($0.ratio))\($0.agrees ? "" : " DISAGREES")" }
        progress(
            "  \(row.name) [\(row.input)]: \(BenchmarkReport.number(row.rate)) \(row.unit)"
                + (peers.isEmpty ? "" : "; " + peers.joined(separator: ", ")))
    }

    /// Notes a wrong answer or a failed peer; the run goes on and exits non-zero at the end.
    func fail(_ message: String) {
        failures.append(message)
        progress("  FAILED: \(message)")
    }

    /// Progress goes to standard error, so standard output stays the report.
    func progress(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Runs a peer, or notes why it could not run.
    func peer(_ script: String, _ arguments: [String], runs: Int? = nil) -> PeerMeasurement? {
        guard let peers else { return nil }
        do {
            return try peers.run(script, arguments, runs: runs)
        } catch {
            fail("\(error)")
            return nil
        }
    }

    /// The generated drive of `count` fixes as a file in `format`, written once per run.
    func driveFile(_ format: BenchFormat, fixes: [Fix]) throws -> String {
        let path =
            "\(options.work)/drive-v\(Self.generatorVersion)-s\(options.seed)-\(fixes.count).\(format.fileExtension)"
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
            try Data(format.render(fixes).utf8).write(to: URL(fileURLWithPath: path + ".partial"))
            try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
        }
        return path
    }

    /// Writes `bytes` to a file under the work folder.
    func write(_ bytes: [UInt8], name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        let path = "\(options.work)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// "1,000,000".
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var text = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { text += "," }
            text.append(character)
        }
        return text
    }
}
