import Foundation

/// One peer's measurement, as its script printed it.
public struct PeerMeasurement: Sendable {
    /// The peer's name, e.g. "gpxpy".
    public var peer: String
    /// The peer library's version.
    public var version: String
    /// Its timed runs.
    public var timing: Timing
    /// Its answer: numbers only, compared key by key with TraceSim's.
    public var answer: [String: Double]
}

/// Why a peer produced no measurement.
public struct PeerFailure: Error, CustomStringConvertible {
    /// What went wrong, with the script's own error output.
    public var description: String
}

/// Runs the Python peer scripts in `Benchmarks/peers/` with the venv's interpreter.
public struct PeerRunner: Sendable {
    /// The interpreter, e.g. `.build/bench-venv/bin/python`.
    public var python: String
    /// The folder holding the peer scripts.
    public var scripts: String
    /// Warm-ups and timed runs, passed on to the script.
    public var plan: RunPlan

    /// Creates a runner.
    public init(python: String, scripts: String, plan: RunPlan) {
        self.python = python
        self.scripts = scripts
        self.plan = plan
    }

    /// Runs `script` with `arguments` and reads the JSON object it prints.
    public func run(_ script: String, _ arguments: [String], runs: Int? = nil) throws -> PeerMeasurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            ["\(scripts)/\(script)"] + arguments + [
                "--warmups", String(plan.warmups), "--runs", String(runs ?? plan.runs),
            ]
        // Standard error goes to a file, so a chatty peer cannot fill a pipe nobody reads.
        let errorPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracesim-bench-peer-\(ProcessInfo.processInfo.processIdentifier).err")
        _ = FileManager.default.createFile(atPath: errorPath.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errorPath)
        defer { try? FileManager.default.removeItem(at: errorPath) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errorHandle.close()
        let errorText = (try? String(contentsOf: errorPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw PeerFailure(description: "\(script) exited with \(process.terminationStatus): \(errorText)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: outputData) as? [String: Any],
            let peer = object["peer"] as? String, let version = object["version"] as? String,
            let seconds = object["seconds"] as? [Double], !seconds.isEmpty,
            let answer = object["answer"] as? [String: Any]
        else {
            throw PeerFailure(
                description: "\(script) printed no measurement: \(String(decoding: outputData, as: UTF8.self))")
        }
        var numbers: [String: Double] = [:]
        for (key, value) in answer {
            guard let number = (value as? NSNumber)?.doubleValue else {
                throw PeerFailure(description: "\(script) answered a non-number for '\(key)'")
            }
            numbers[key] = number
        }
        return PeerMeasurement(peer: peer, version: version, timing: Timing(seconds: seconds), answer: numbers)
    }
}
