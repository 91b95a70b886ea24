import Foundation
import TestSupport
import Testing

@Suite("tracesim inspect")
struct InspectCommandTests {
    static let contractKeys = [
        "file", "format", "fixes", "byProvider", "first", "last", "durationSeconds", "medianIntervalSeconds",
        "accuracy", "speed", "course", "altitude", "motionSamples", "skipped", "merged", "untimed",
    ]

    @Test("JSON output: one object per file per line, contract keys first and in order")
    func jsonContract() throws {
        let files = ["gpsd/haicom-305N.log", "gnss_lib_py/pixel6.txt"].map(Repository.trace)
        let result = runCommand(["inspect", "--format", "json"] + files)
        #expect(result.exitCode == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 2)
        let keyOrder = try lines[0].firstMatchKeys()
        #expect(Array(keyOrder.prefix(Self.contractKeys.count)) == Self.contractKeys)

        let haicom = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(haicom["format"] as? String == "nmea")
        #expect(haicom["fixes"] as? Int == 68)
        #expect(haicom["accuracy"] as? String == "hdop")
        #expect(haicom["first"] as? String == "2007-04-08T09:53:04.802Z")
        #expect((haicom["skipped"] as? [String: Int]) == ["noFix": 6])
        let pixel = try #require(JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect((pixel["byProvider"] as? [String: Int]) == ["gps": 94, "fused": 95, "network": 54])
        #expect(pixel["medianIntervalSeconds"] as? Double == 6)
    }

    @Test("the same input prints the same bytes twice")
    func deterministic() {
        let arguments = ["inspect", "--format", "json", Repository.trace("gpsbabel/2013_JUNE.json"), Repository.trace("gpsbabel/bike.tcx")]
        #expect(runCommand(arguments).output == runCommand(arguments).output)
    }

    @Test("two processes print the same bytes")
    func deterministicAcrossProcesses() throws {
        let arguments = ["inspect", "--format", "json", "Traces/gnss_lib_py/pixel6.txt", "Traces/gpsbabel/2013_JUNE.json"]
        let first = try runBinary(arguments)
        let second = try runBinary(arguments)
        #expect(first.exitCode == 0)
        #expect(first.output == second.output)
        #expect(!first.output.isEmpty)
    }

    @Test("text output names the hint for undated NMEA and reports skipped lines")
    func textOutput() {
        let result = runCommand(["inspect", Repository.trace("gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga")])
        #expect(result.exitCode == 0)
        #expect(result.output.contains("skipped   1748 bad NMEA checksum (lines 2, 4, 6, 8, 10, ...)"))
        #expect(result.output.contains("pass --date YYYY-MM-DD"))
        let dated = runCommand([
            "inspect", "--date", "2020-02-07",
            Repository.trace("gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga"),
        ])
        #expect(dated.output.contains("fixes     1748 (gps 1748)"))
    }

    @Test("table output has one aligned row per file under a header")
    func tableOutput() {
        let files = ["gpsbabel/2013_JUNE.json", "gpsd/haicom-305N.log"].map(Repository.trace)
        let lines = runCommand(["inspect", "--format", "table"] + files).output.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("file"))
        #expect(lines[1].contains("google-takeout") && lines[1].contains("17d07h43m") && lines[1].contains("25m36s"))
        #expect(lines[2].contains("6 noFix"))
        #expect(
            lines[1].range(of: "google-takeout")?.lowerBound.utf16Offset(in: lines[1])
                == lines[0].range(of: "format")?.lowerBound.utf16Offset(in: lines[0]))
    }

    @Test("a bad file exits 65 with FILE:LINE:COL, and the other files are still reported")
    func badFile() throws {
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-bad-\(UUID().uuidString).csv")
        try Data("time,lat,lon\n2020-01-01T00:00:00Z,95,2\n".utf8).write(to: bad)
        defer { try? FileManager.default.removeItem(at: bad) }
        let result = runCommand(["inspect", bad.path, Repository.trace("gpsd/skytraq-dgps.log")])
        #expect(result.exitCode == 65)
        #expect(result.error == "error: \(bad.path):2:22: latitude is outside -90...90 degrees\n")
        #expect(result.output.contains("fixes     96 (gps 96)"))
    }

    @Test("a missing file exits 66")
    func missingFile() {
        let result = runCommand(["inspect", "no/such/trace.gpx"])
        #expect(result.exitCode == 66)
        #expect(result.error == "error: no/such/trace.gpx: no such file\n")
    }

    @Test("usage errors exit 64 and suggest the nearest option")
    func usageErrors() {
        let typo = runCommand(["inspect", "--fromat", "json", "x"])
        #expect(typo.exitCode == 64)
        #expect(typo.error.contains("unknown option '--fromat' (did you mean '--format'?)"))
        #expect(typo.error.contains("Run 'tracesim help inspect' for usage."))
        #expect(runCommand(["inspect"]).exitCode == 64)
        #expect(runCommand(["inspect", "--format", "xml", "x"]).exitCode == 64)
        #expect(runCommand(["inspect", "--date", "2020-13-01", "x"]).exitCode == 64)
        let command = runCommand(["inspekt"])
        #expect(command.exitCode == 64)
        #expect(command.error.contains("did you mean 'inspect'?"))
    }

    @Test("help lists usage, arguments, options and exit status")
    func help() {
        let result = runCommand(["inspect", "--help"])
        #expect(result.exitCode == 0)
        for section in ["OVERVIEW:", "USAGE: tracesim inspect", "ARGUMENTS:", "OPTIONS:", "EXIT STATUS:", "--date"] {
            #expect(result.output.contains(section))
        }
        #expect(runCommand(["help", "convert"]).output.contains("USAGE: tracesim convert"))
        #expect(runCommand(["--help"]).output.contains("COMMANDS:"))
    }

    @Test("the built binary exits with the documented codes")
    func binaryExitCodes() throws {
        #expect(try runBinary(["inspect", "Traces/gpsd/haicom-305N.log"]).exitCode == 0)
        #expect(try runBinary(["inspect", "missing.nmea"]).exitCode == 66)
        #expect(try runBinary(["inspect", "--bogus"]).exitCode == 64)
        #expect(try runBinary(["inspect", "Traces/SOURCES.md"]).exitCode == 65)
    }
}

extension Substring {
    /// The top-level keys of a one-line JSON object, in the order written.
    func firstMatchKeys() throws -> [String] {
        var keys: [String] = []
        var depth = 0
        var index = startIndex
        var inString = false
        var stringStart = startIndex
        while index < endIndex {
            let character = self[index]
            if inString {
                if character == "\\" {
                    index = self.index(after: index)
                } else if character == "\"" {
                    inString = false
                    let next = self.index(after: index)
                    if depth == 1, next < endIndex, self[next] == ":" {
                        keys.append(String(self[self.index(after: stringStart)..<index]))
                    }
                }
            } else if character == "\"" {
                inString = true
                stringStart = index
            } else if character == "{" || character == "[" {
                depth += 1
            } else if character == "}" || character == "]" {
                depth -= 1
            }
            index = self.index(after: index)
        }
        return keys
    }
}
