import Foundation

/// A peer measured on the same input in the same run.
public struct PeerComparison: Codable, Sendable {
    /// The peer, e.g. "gpxpy" or "GEOS prepared contains".
    public var peer: String
    /// The peer's version.
    public var version: String
    /// Its median and 90th-percentile seconds.
    public var medianSeconds: Double
    /// The 90th percentile.
    public var p90Seconds: Double
    /// Its rate in the row's unit.
    public var rate: Double
    /// TraceSim's rate divided by the peer's: above 1, TraceSim is faster.
    public var ratio: Double
    /// Whether the peer's answer matched TraceSim's.
    public var agrees: Bool

    /// Creates a comparison of `traceSimRate` with a peer's `timing` over `work` units.
    public init(peer: String, version: String, timing: Timing, work: Double, traceSimRate: Double, agrees: Bool) {
        self.peer = peer
        self.version = version
        medianSeconds = timing.median
        p90Seconds = timing.p90
        rate = work / timing.median
        ratio = traceSimRate / rate
        self.agrees = agrees
    }
}

/// One measured case.
public struct BenchmarkRow: Codable, Sendable {
    /// import, pipeline, geofencing, matrix or bandwidth.
    public var suite: String
    /// The case, e.g. "GPX" or "ideal".
    public var name: String
    /// The input, e.g. "1,000,000 fixes, 273 MB".
    public var input: String
    /// The unit of `rate`, e.g. "MB/s".
    public var unit: String
    /// TraceSim's median seconds.
    public var medianSeconds: Double
    /// TraceSim's 90th-percentile seconds.
    public var p90Seconds: Double
    /// TraceSim's rate in `unit`.
    public var rate: Double
    /// Further figures, e.g. "fixes/s" or "realTimeFactor".
    public var figures: [String: Double]
    /// Peers on the same input.
    public var peers: [PeerComparison]

    /// Creates a row from TraceSim's `timing` over `work` units.
    public init(
        suite: String, name: String, input: String, unit: String, timing: Timing, work: Double,
        figures: [String: Double] = [:], peers: [PeerComparison] = []
    ) {
        self.suite = suite
        self.name = name
        self.input = input
        self.unit = unit
        medianSeconds = timing.median
        p90Seconds = timing.p90
        rate = work / timing.median
        self.figures = figures
        self.peers = peers
    }
}

/// A target from the benchmark specification, judged on this run's numbers.
public struct TargetCheck: Codable, Sendable {
    /// The work, e.g. "GPX import".
    public var work: String
    /// The target, e.g. "≥ 20× gpxpy".
    public var target: String
    /// What this run measured.
    public var measured: String
    /// Whether the target was met; `nil` when it could not be judged (a peer was not run).
    public var met: Bool?

    /// Creates a check.
    public init(work: String, target: String, measured: String, met: Bool?) {
        self.work = work
        self.target = target
        self.measured = measured
        self.met = met
    }
}

/// The machine the numbers come from.
public struct MachineDescription: Codable, Sendable {
    /// The CPU model.
    public var cpu: String
    /// Cores the process may use.
    public var cores: Int
    /// Physical memory in GiB.
    public var memoryGiB: Double
    /// The operating system.
    public var system: String

    /// Reads the current machine.
    public static func current() -> MachineDescription {
        let info = ProcessInfo.processInfo
        var cpu = "unknown CPU"
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return MachineDescription(
            cpu: cpu, cores: info.activeProcessorCount,
            memoryGiB: (Double(info.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
            system: info.operatingSystemVersionString)
    }
}

/// Everything one run measured.
public struct BenchmarkReport: Codable, Sendable {
    /// Bumped when a key changes meaning.
    public var schemaVersion = 1
    /// The day of the run, `YYYY-MM-DD` (UTC).
    public var date: String
    /// Where it ran.
    public var machine: MachineDescription
    /// Warm-ups and timed runs per case.
    public var warmups: Int
    /// Timed runs per case.
    public var runs: Int
    /// Every measured case, in the order measured.
    public var rows: [BenchmarkRow]
    /// The targets, judged.
    public var targets: [TargetCheck]

    /// Creates a report.
    public init(
        date: String, machine: MachineDescription, plan: RunPlan, rows: [BenchmarkRow], targets: [TargetCheck]
    ) {
        self.date = date
        self.machine = machine
        warmups = plan.warmups
        runs = plan.runs
        self.rows = rows
        self.targets = targets
    }

    /// Pretty JSON with sorted keys, so two reports diff cleanly.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// The side-by-side table and the targets, in Markdown.
    public func markdown() -> String {
        var text = "Measured \(date) on \(machine.cpu), \(machine.cores) cores, \(machine.memoryGiB) GiB"
        let plural = { (count: Int) in count == 1 ? "" : "s" }
        text += " (median of \(runs) run\(plural(runs)) after \(warmups) warm-up\(plural(warmups))).\n\n"
        text +=
            "| Suite | Case | Input | TraceSim | Share of the streaming limit | Peer | Peer rate | TraceSim ÷ peer |\n"
        text += "|---|---|---|---:|---:|---|---:|---:|\n"
        for row in rows {
            let traceSim = "\(Self.number(row.rate)) \(row.unit)"
            let limitShare =
                (row.figures["fractionOfStreamingLimit"] ?? row.figures["fractionOfMemoryStreamingLimit"]).map {
                    Self.percent($0)
                } ?? ""
            let lead = "| \(row.suite) | \(row.name) | \(row.input) | \(traceSim) | \(limitShare) |"
            if row.peers.isEmpty { text += lead + " | | |\n" }
            for peer in row.peers {
                let verdict = peer.agrees ? "" : " (answers differ)"
                text += lead + " \(peer.peer) \(peer.version) | \(Self.number(peer.rate)) \(row.unit)"
                text += " | \(Self.ratio(peer.ratio))\(verdict) |\n"
            }
        }
        let measuredFromOutside = rows.filter { $0.figures["peakRSSMegabytes"] != nil }
        if !measuredFromOutside.isEmpty {
            // Child processes measured from outside: wall time and the kernel's peak resident set.
            text += "\n| Suite | Case | Input | Wall time | CPU time | Peak RSS |\n|---|---|---|---:|---:|---:|\n"
            for row in measuredFromOutside {
                let seconds = String(format: "%.1f s", row.figures["seconds"] ?? row.medianSeconds)
                let cpu = row.figures["cpuSeconds"].map { String(format: "%.1f s", $0) } ?? ""
                let peak = String(format: "%.0f MB", row.figures["peakRSSMegabytes"] ?? 0)
                text += "| \(row.suite) | \(row.name) | \(row.input) | \(seconds) | \(cpu) | \(peak) |\n"
            }
        }
        text += "\n| Work | Target | Measured | Met |\n|---|---|---|---|\n"
        for target in targets {
            let met = target.met.map { $0 ? "yes" : "**no**" } ?? "not run"
            text += "| \(target.work) | \(target.target) | \(target.measured) | \(met) |\n"
        }
        return text
    }

    /// Three significant figures with a k/M/G suffix: 1.23 M, 456 k, 7.89. Rounding happens
    /// first, so 999,600 is "1.00 M", not "1000 k".
    public static func number(_ value: Double) -> String {
        guard value.isFinite, value != 0 else { return String(format: "%.2f", value) }
        let magnitude = Foundation.floor(Foundation.log10(abs(value)))
        let scale = Foundation.pow(10, magnitude - 2)
        let rounded = (value / scale).rounded() * scale
        let (scaled, suffix): (Double, String) =
            switch abs(rounded) {
            case 1e9...: (rounded / 1e9, " G")
            case 1e6...: (rounded / 1e6, " M")
            case 1e4...: (rounded / 1e3, " k")
            default: (rounded, "")
            }
        let digits = abs(scaled) >= 100 ? 0 : abs(scaled) >= 10 ? 1 : 2
        return String(format: "%.\(digits)f", scaled) + suffix
    }

    /// A share as "2.8 %".
    public static func percent(_ value: Double) -> String {
        String(format: value * 100 >= 10 ? "%.0f %%" : "%.1f %%", value * 100)
    }

    /// A ratio as "12.3×".
    public static func ratio(_ value: Double) -> String {
        String(format: value >= 100 ? "%.0f×" : value >= 10 ? "%.1f×" : "%.2f×", value)
    }
}
