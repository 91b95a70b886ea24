import BenchmarkKit
import Fleet

/// The specification's targets, judged on this run's rows. A ratio is taken at the largest
/// input both sides ran.
enum Targets {
    static func judge(_ rows: [BenchmarkRow]) -> [TargetCheck] {
        var checks: [TargetCheck] = []
        // A case this run did not measure at all (its suite was not chosen) has no line.
        func add(_ check: TargetCheck?) { if let check { checks.append(check) } }
        add(ratio(rows, suite: "import", name: "GPX", peer: "gpxpy", work: "GPX import", at: 20))
        add(
            ratio(rows, suite: "import", name: "canonical CSV", peer: "pandas", work: "CSV import", at: 5))
        add(
            ratio(
                rows, suite: "geofencing", name: "10,000 polygons", peer: "shapely", work: "10k-polygon geofencing",
                at: 3))
        add(
            ratio(
                rows, suite: "pipeline", name: "accuracy gate + odometer", peer: "NumPy",
                work: "Pipeline (gate + odometer, the work NumPy does)", at: 10))
        add(
            ratio(rows, suite: "pipeline", name: "ideal", peer: "NumPy", work: "Pipeline (whole ideal replay)", at: 10))
        // Issue 19: the gate and odometer as the replay runs them ≥ 25 M fixes/s; the whole ideal
        // replay and every preset ≥ 10 M fixes/s per core.
        let absolute = [
            ("accuracy gate + odometer", 25e6), (PipelineSuite.engineCase, 25e6), ("ideal", 10e6),
        ]
        for (name, target) in absolute {
            guard let row = rows.last(where: { $0.suite == "pipeline" && $0.name == name }) else { continue }
            let factor = row.figures["realTimeFactor"] ?? 0
            checks.append(
                TargetCheck(
                    work: "Pipeline absolute (\(name), one core, no geofences)",
                    target: "≥ \(BenchmarkReport.number(target)) fixes/s",
                    measured: "\(BenchmarkReport.number(row.rate)) fixes/s", met: row.rate >= target))
            checks.append(
                TargetCheck(
                    work: "Pipeline real-time factor (\(name))", target: "> 10⁶",
                    measured: BenchmarkReport.number(factor), met: factor > 1e6))
        }
        let presets = rows.filter { $0.suite == "pipeline" && $0.figures["acceptedFixes"] != nil }
        if let slowest = presets.min(by: { $0.rate < $1.rate }) {
            checks.append(
                TargetCheck(
                    work: "Pipeline, slowest of \(presets.count) presets (\(slowest.name))", target: "≥ 10 M fixes/s",
                    measured: "\(BenchmarkReport.number(slowest.rate)) fixes/s", met: slowest.rate >= 10e6))
        }
        for (suite, name, label) in [
            ("matrix", "1 core", "Matrix, bundled traces, one core"),
            ("fleet", "matrix --jobs 1", "Matrix, generated fleet, one worker"),
        ] {
            guard let row = rows.last(where: { $0.suite == suite && $0.name == name }) else { continue }
            checks.append(
                TargetCheck(
                    work: label, target: "≥ 10 M replayed fixes/s",
                    measured: "\(BenchmarkReport.number(row.rate)) replayed fixes/s", met: row.rate >= 10e6))
        }
        // The budget applies to the JSON parse and, stricter, to the whole load with its checks.
        for (label, isDocumentOnly) in [("Config parse (ConfigJSON)", true), ("Config load (parse + checks)", false)] {
            let configRows = rows.filter {
                $0.suite == "config" && $0.name.hasSuffix("ConfigJSON only") == isDocumentOnly
            }
            guard let slowest = configRows.min(by: { $0.rate < $1.rate }) else { continue }
            checks.append(
                TargetCheck(
                    work: "\(label), slowest of \(configRows.count): \(slowest.name)", target: "≥ 50 MB/s",
                    measured: "\(BenchmarkReport.number(slowest.rate)) MB/s", met: slowest.rate >= 50))
        }
        if let row = rows.last(where: { $0.suite == "merge" }) {
            checks.append(
                TargetCheck(
                    work: "merge (\(row.input))", target: "≥ 50 MB/s of parts",
                    measured: "\(BenchmarkReport.number(row.rate)) MB/s", met: row.rate >= 50))
        }
        // Issue 32: the trivial Python engine takes ≥ 300 k delivered locations/s in runs.
        if let row = rows.last(where: { $0.suite == "protocol" && $0.name == ProtocolRunsSuite.runsCase }) {
            checks.append(
                TargetCheck(
                    work: "Protocol in runs, trivial Python engine", target: "≥ 300,000 delivered locations/s",
                    measured: "\(BenchmarkReport.number(row.rate)) locations/s", met: row.rate >= 300_000))
        }
        checks += flatMemory(rows)
        return checks
    }

    /// Peak memory over growing trace counts, per output format: flat when the largest count's
    /// peak is within `FleetSuite.flatFactor` of the smallest's.
    static func flatMemory(_ rows: [BenchmarkRow]) -> [TargetCheck] {
        let measured = rows.filter {
            $0.suite == "fleet" && $0.figures["traces"] != nil && $0.name.hasSuffix(" traces")
        }
        var formats: [String] = []
        for row in measured {
            let format = String(row.name.split(separator: ",")[0])
            if !formats.contains(format) { formats.append(format) }
        }
        return formats.compactMap { format in
            let series = measured.filter { $0.name.hasPrefix(format + ",") }
            guard let first = series.first, let last = series.last, series.count > 1,
                let low = first.figures["peakRSSMegabytes"], let high = last.figures["peakRSSMegabytes"]
            else { return nil }
            let traces = { (row: BenchmarkRow) in Int(row.figures["traces"] ?? 0) }
            return TargetCheck(
                work: "Peak RSS of \(format), \(Bench.grouped(traces(first))) to \(Bench.grouped(traces(last))) traces",
                target: "flat (≤ \(FleetSuite.flatFactor)×)",
                measured: String(format: "%.0f MB to %.0f MB (%.2f×)", low, high, high / low),
                met: high <= low * FleetSuite.flatFactor)
        }
    }

    static func ratio(
        _ rows: [BenchmarkRow], suite: String, name: String, peer: String, work: String, at target: Double
    )
        -> TargetCheck?
    {
        let candidates = rows.filter { $0.suite == suite && $0.name == name }
        guard !candidates.isEmpty else { return nil }
        let measured = candidates.compactMap { row in row.peers.first { $0.peer.contains(peer) }.map { (row, $0) } }
        guard let (row, comparison) = measured.last else {
            return TargetCheck(work: work, target: "≥ \(Int(target))× \(peer)", measured: "peer not run", met: nil)
        }
        return TargetCheck(
            work: work, target: "≥ \(Int(target))× \(peer)",
            measured: "\(BenchmarkReport.ratio(comparison.ratio)) on \(row.input)"
                + (comparison.agrees ? "" : " (answers differ)"),
            met: comparison.agrees && comparison.ratio >= target)
    }
}
