import Fleet
import Foundation
import Scenarios
import TestSupport
import Testing

@Suite("tracesim tune")
struct TuneCommandTests {
    static let drive = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
    static let span = Repository.trace("gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga")
    static let bike = Repository.trace("gpsbabel/bike.tcx")

    private func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("the Tuning article's question: no distance filter keeps 95 % under the lock cutoff; with a session 20 m does")
    func readmeQuestion() throws {
        let result = runCommand([
            "tune", Self.drive, "--scenario", "wheninuse-locked", "--scenario", "wheninuse-background-session",
            "--sweep", "distanceFilter=0:50:10", "--require", "recordedDistanceRatio>=0.95", "--objective",
            "gpsOnSeconds:min",
            "--objective", "recordedFixes:min", "--format", "json",
        ])
        #expect(result.exitCode == 0, "\(result.error)")
        let study = try json(result.output)
        let rows = try #require(study["rows"] as? [[String: Any]])
        #expect(rows.count == 12)
        // Rows 7-9: the session with 0, 10 and 20 m; every locked row and the longer filters fail.
        #expect(rows.map { $0["meetsConstraints"] as? Bool } == (1...12).map { (7...9).contains($0) })
        let ratios = rows.compactMap { ($0["metrics"] as? [String: Any])?["recordedDistanceRatio"] as? Double }
        #expect(ratios.count == 12 && Array(ratios[6...]) == ratios[6...].sorted(by: >), "\(ratios)")
        let chosen = try #require(study["chosen"] as? [String: Any])
        #expect(chosen["row"] as? Int == 9)
        let scenario = try #require(chosen["scenario"] as? [String: Any])
        let engine = try #require(scenario["engine"] as? [String: Any])
        #expect(engine["distanceFilter"] as? Double == 20 && engine["backgroundSession"] as? Bool == true)
    }

    @Test("--noise measures the noisy copy against its clean trace, the same for the same seed")
    func noiseStandsInForAPhone() throws {
        let arguments = [
            "tune", Self.drive, "--sweep", "gate.horizontalAccuracy=10,80", "--noise", "multipath:rate=30",
            "--objective", "acceptedFixes", "--objective", "positionErrorP95Meters", "--format", "json",
        ]
        let first = runCommand(arguments)
        #expect(first.exitCode == 0, "\(first.error)")
        #expect(runCommand(arguments).output == first.output)
        #expect(runCommand(arguments + ["--seed", "7"]).output != first.output)
        let rows = try #require(try json(first.output)["rows"] as? [[String: Any]])
        let metrics = rows.compactMap { $0["metrics"] as? [String: Any] }
        let p95 = metrics.compactMap { $0["positionErrorP95Meters"] as? Double }
        let accepted = metrics.compactMap { $0["acceptedFixes"] as? Int }
        // The clean drive is its own truth: a looser gate lets more multipath through, further off.
        #expect(p95.count == 2 && p95[0] > 0 && p95[1] > p95[0] * 2, "\(p95)")
        #expect(accepted.count == 2 && accepted[1] > accepted[0], "\(accepted)")
        // Without noise or a truth, position errors are not there to optimise.
        let plain = runCommand(Array(arguments.prefix(4)) + ["--objective", "positionErrorP95Meters"])
        #expect(plain.exitCode == 64, "\(plain.error)")
    }

    @Test("the Tuning article's table is what the command prints today, line for line")
    func readmeTable() throws {
        let result = runCommand([
            "tune", Self.drive, "--scenario", "wheninuse-locked", "--scenario", "wheninuse-background-session",
            "--sweep", "distanceFilter=0:50:10", "--require", "recordedDistanceRatio>=0.95", "--objective",
            "gpsOnSeconds:min", "--objective", "recordedFixes:min",
        ])
        #expect(result.exitCode == 0, "\(result.error)")
        let article = try DocumentationFiles.text(DocumentationFiles.catalogue + "/Tuning.md")
        let table = result.output.split(separator: "\n").prefix(16).map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }
        #expect(table.count == 16)
        #expect(article.contains(table.joined(separator: "\n")))
    }

    @Test("text: a row per combination, the footer names what the front minimises and the chosen row")
    func text() {
        let result = runCommand(["tune", Self.drive, "--sweep", "distanceFilter=0:20:20", "--sweep", "stopRule=timeout,radar"])
        #expect(result.exitCode == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines[0].contains("distanceFilter (m)") && lines[0].contains("recordedFixes ↑"))
        #expect(lines[0].contains("gpsOnSeconds ↓"))
        #expect(lines.contains("4 rows over 1 trace; 4 meet every constraint, 2 on the front."), "\(lines)")
        #expect(lines.contains { $0.contains("maximising recordedFixes, minimising gpsOnSeconds") })
        #expect(lines.contains { $0.hasPrefix("Reference: the ideal preset") })
        #expect(lines.contains { $0.hasPrefix("Chosen: row ") })
    }

    @Test("CSV: one header and one line per row with every metric")
    func csv() {
        let result = runCommand(["tune", Self.drive, "--sweep", "odometerAccuracy=5,20", "--format", "csv"])
        #expect(result.exitCode == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("row,scenario,odometerAccuracy,recordedFixes,"))
        #expect(lines[0].contains("missedStops") && lines[0].hasSuffix("front,dominatedBy,chosen"))
        #expect(lines[1].hasPrefix("1,ideal,5,") && lines[2].hasPrefix("2,ideal,20,"))
    }

    @Test("odometerAccuracy=5 shrinks distanceRatio against the fixed reference instead of printing 0×")
    func odometerAccuracy() throws {
        let result = runCommand([
            "tune", Self.drive, "--sweep", "odometerAccuracy=0.5,20", "--objective", "distanceRatio", "--format", "json",
        ])
        let rows = try #require(try json(result.output)["rows"] as? [[String: Any]])
        let ratios = rows.compactMap { ($0["metrics"] as? [String: Any])?["distanceRatio"] as? Double }
        #expect(ratios.count == 2)
        #expect(ratios[0] < ratios[1] && ratios[1] == 1, "\(ratios)")
    }

    @Test("the chosen row, written with --write-scenario, replays as a scenario file; an existing file is kept")
    func scenarioRoundTrip() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tune-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tuned.json").path
        let tuned = runCommand([
            "tune", Self.drive, "--sweep", "distanceFilter=30", "--sweep", "stopRule=radar", "--write-scenario", file,
        ])
        #expect(tuned.exitCode == 0, "\(tuned.error)")
        let replay = runCommand(["replay", Self.drive, "--scenario", file, "--format", "json"])
        #expect(replay.exitCode == 0, "\(replay.error)")
        let metrics = try #require(try json(replay.output)["metrics"] as? [String: Any])
        let csv = runCommand(["tune", Self.drive, "--sweep", "distanceFilter=30", "--sweep", "stopRule=radar", "--format", "csv"])
        let header = csv.output.split(separator: "\n")[0].split(separator: ",").map(String.init)
        let row = csv.output.split(separator: "\n")[1].split(separator: ",").map(String.init)
        let recorded = try #require(header.firstIndex(of: "recordedFixes"))
        #expect(metrics["recordedFixes"] as? Int == Int(row[recorded]))
        let again = runCommand(["tune", Self.drive, "--sweep", "distanceFilter=30", "--write-scenario", file])
        #expect(again.exitCode == 73 && again.error.contains("already exists"), "\(again.error)")
    }

    @Test("--write-scenario writes to standard output and through a link to a device; a link to a file is kept")
    func writeScenarioTargets() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tune-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let toStandardOutput = runCommand([
            "tune", Self.bike, "--sweep", "distanceFilter=10", "--format", "csv", "--write-scenario", "/dev/stdout",
        ])
        #expect(toStandardOutput.exitCode == 0, "\(toStandardOutput.error)")
        #expect(toStandardOutput.output.hasSuffix("\"seed\":0}\n") && toStandardOutput.output.contains("{\"name\":\"ideal-tuned\""))
        let toDevice = folder.appendingPathComponent("null").path
        try FileManager.default.createSymbolicLink(atPath: toDevice, withDestinationPath: "/dev/null")
        let device = runCommand(["tune", Self.bike, "--sweep", "distanceFilter=10", "--write-scenario", toDevice])
        #expect(device.exitCode == 0, "\(device.error)")
        let existing = folder.appendingPathComponent("existing.json").path
        try Data("{}".utf8).write(to: URL(fileURLWithPath: existing))
        let toFile = folder.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: toFile, withDestinationPath: existing)
        let file = runCommand(["tune", Self.bike, "--sweep", "distanceFilter=10", "--write-scenario", toFile])
        #expect(file.exitCode == 73)
        #expect(file.error == "error: \(toFile): already exists; remove it or choose another name\n")
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "{}")
    }

    @Test("a truth from another place and day is an error naming both time spans and the distance")
    func truthElsewhere() {
        let result = runCommand(["tune", Self.drive, "--truth", Self.bike, "--sweep", "distanceFilter=0,10"])
        #expect(result.exitCode == 65)
        #expect(result.error.contains("bike.tcx: the truth does not overlap"), "\(result.error)")
        #expect(result.error.contains("no common time (trace 2020-02-07T02:14:17Z"), "\(result.error)")
        #expect(result.error.contains("truth 2013-04-30T"), "\(result.error)")
        #expect(result.error.contains("no common place (the bounding boxes are "), "\(result.error)")
    }

    @Test("the u-blox drive against its SPAN truth: sub-metre median error, and the truth's objectives by default")
    func truthOnTheSameDrive() throws {
        let result = runCommand([
            "tune", Self.drive, "--truth", Self.span, "--date", "2020-02-07", "--sweep", "gate.horizontalAccuracy=10,20",
            "--format", "json",
        ])
        #expect(result.exitCode == 0, "\(result.error)")
        let study = try json(result.output)
        let objectives = try #require(study["objectives"] as? [[String: Any]])
        #expect(objectives.compactMap { $0["metric"] as? String } == ["recordedFixes", "positionErrorP95Meters"])
        let rows = try #require(study["rows"] as? [[String: Any]])
        let metrics = try #require(rows.last?["metrics"] as? [String: Any])
        let median = try #require(metrics["positionErrorMedianMeters"] as? Double)
        #expect(median > 0.05 && median < 2, "\(median)")
        let ratio = try #require(metrics["distanceRatio"] as? Double)
        #expect(ratio > 0.9 && ratio < 1.1, "\(ratio)")
    }

    @Test(
        "bad objectives, constraints and sweeps are usage errors saying what is wrong",
        arguments: [
            (["--objective", "kept"], "--objective: unknown metric 'kept' (one of: recordedFixes"),
            (["--objective", "gpsOnSeconds:down"], "is not min or max"),
            (["--objective", "positionErrorP95Meters"], "measured against a ground truth: add --truth"),
            (["--require", "distanceRatio=>0.95"], "--require: "),
            (["--require", "distanceRatio"], "has no comparison"),
            (["--require", ""], "has no comparison"),
            (["--sweep", "gate.speed=1:2:1"], "unknown parameter 'gate.speed'"),
            (["--sweep", "preventSuspend=maybe"], "'maybe' is not a value of preventSuspend"),
            (["--scenario", "nowhere"], "unknown scenario 'nowhere'"),
            (["--jobs", "0"], "--jobs must be a whole number from 1 to 1024"),
        ])
    func usageErrors(arguments: [String], message: String) {
        let result = runCommand(["tune", Self.drive] + arguments)
        #expect(result.exitCode == 64)
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test("an untimed truth needs --date: 65")
    func untimedTruth() {
        let untimed = runCommand(["tune", Self.drive, "--truth", Self.span, "--sweep", "stopTimeout=60"])
        #expect(untimed.exitCode == 65 && untimed.error.contains("--date"), "\(untimed.error)")
    }

    @Test("many traces pool into one table that does not depend on --jobs")
    func jobsDeterminism() {
        let traces = [
            Self.drive, Self.bike, Repository.trace("gpsd/haicom-305N.log"), Repository.trace("mapbox-navigation-ios/tunnel.json"),
        ]
        let arguments = ["tune"] + traces + ["--sweep", "distanceFilter=0,20", "--sweep", "stopTimeout=60,300", "--format", "csv"]
        let one = runCommand(arguments + ["--jobs", "1"])
        let three = runCommand(arguments + ["--jobs", "3"])
        #expect(one.exitCode == 0, "\(one.error)")
        #expect(one.output == three.output)
        #expect(one.output.split(separator: "\n").count == 5)
    }

    @Test("a directory: a file that cannot be replayed is reported and left out, the rest pooled, and the exit is 65")
    func directory() {
        let result = runCommand(["tune", Repository.trace("gps-measurement-tools"), "--sweep", "distanceFilter=0,20"])
        #expect(result.exitCode == 65)
        #expect(result.error.contains("MTV.Local1.SPAN.20200206-181434.gga: no timed fixes to replay"), "\(result.error)")
        #expect(result.output.contains("2 rows over 2 traces;"), "\(result.output)")
    }

    @Test("--help names every parameter and every metric with its direction")
    func help() {
        let help = runCommand(["help", "tune"])
        for parameter in Tuning.parameters { #expect(help.output.contains("  \(parameter.name): "), "\(parameter.name)") }
        for metric in Tuning.Metric.allCases {
            #expect(help.output.contains("  \(metric.rawValue): \(metric.defaultDirection.rawValue);"), "\(metric)")
        }
    }

    @Test("HTML: a page with the Pareto plot and the chosen row labelled")
    func html() {
        let result = runCommand(["tune", Self.drive, "--sweep", "distanceFilter=0:40:20", "--format", "html"])
        #expect(result.exitCode == 0)
        #expect(result.output.hasPrefix("<!DOCTYPE html>") && result.output.contains("<svg class=\"pareto\""))
        #expect(result.output.contains("chosen: row ") && result.output.contains("lower is better"))
        #expect(result.output.filter { $0 == "\n" }.count > 3)
    }
}
