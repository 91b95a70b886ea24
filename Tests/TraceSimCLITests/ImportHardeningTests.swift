import Foundation
import TestSupport
import Testing

/// Importer cases of the second hardening pass, checked as a user sees them: the command,
/// its exit code and the first line it prints to standard error.
@Suite("Import hardening")
struct ImportHardeningTests {
    private static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    @Test(
        "a --date outside the days the clock holds is a usage error naming the range",
        arguments: ["1500-01-01", "0001-01-01", "1677-09-21", "2262-04-12", "9999-12-31", "2262-04-11"])
    func dateOutOfRange(_ date: String) {
        let result = runCommand([
            "inspect", Repository.trace("gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga"), "--date", date,
        ])
        #expect(result.exitCode == 64)
        #expect(
            Self.firstLine(result.error)
                == "error: --date '\(date)' is outside 1677-09-22 to 2262-04-10, the days TraceSim's clock represents")
    }

    @Test("the first and last whole days are accepted", arguments: ["1677-09-22", "2262-04-10"])
    func dateAtTheEdges(_ date: String) {
        let result = runCommand([
            "inspect", Repository.trace("gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga"), "--date", date,
        ])
        #expect(result.exitCode == 0)
        #expect(result.error.isEmpty)
    }

    static func gga(_ time: String) -> String {
        let body = "GPGGA,\(time),3723.2475,N,12158.3416,W,1,08,0.9,545.4,M,46.9,M,,"
        let checksum = body.utf8.reduce(UInt8(0), ^)
        let hex = String(checksum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
    }

    @Test("an NMEA epoch a valid --date carries past the clock's end is refused at its line")
    func epochPastTheClock() throws {
        let log = ["230000", "010000", "234716.85", "234717"].map(Self.gga).joined(separator: "\n") + "\n"
        let path = try TemporaryFile.write("late.nmea", log, prefix: "import-hardening")
        let result = runCommand(["inspect", path, "--date", "2262-04-10"])
        #expect(result.exitCode == 65)
        #expect(
            Self.firstLine(result.error)
                == "error: \(path):4:8: 2262-04-11T23:47:17Z (outside 1677-09-21T00:12:43Z...2262-04-11T23:47:16Z) "
                + "is not a valid timestamp")
        let inRange = try TemporaryFile.write(
            "late.nmea", log.split(separator: "\n").prefix(3).joined(separator: "\n"), prefix: "import-hardening")
        #expect(runCommand(["inspect", inRange, "--date", "2262-04-10"]).exitCode == 0)
    }

    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
        <trk><trkseg>
        <trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="1" lon="2"><time>2020-01-01T00:00:01Z</time></trkpt>
        </trkseg></trk></gpx>

        """

    @Test("UTF-16 and UTF-32 files are named as such, with or without a byte-order mark")
    func wideEncodings() throws {
        let csv = "time,lat,lon\n2020-01-01T00:00:00Z,1,2\n"
        let cases: [(String, [UInt8], String)] = [
            ("bom.gpx", [0xFF, 0xFE] + Self.gpx.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16"),
            ("le.gpx", Self.gpx.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16"),
            ("be.csv", csv.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "UTF-16"),
            ("bom.csv", [0xFE, 0xFF] + csv.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "UTF-16"),
            ("wide.csv", csv.unicodeScalars.flatMap { [UInt8($0.value), 0, 0, 0] }, "UTF-32"),
        ]
        for (name, bytes, encoding) in cases {
            let path = try TemporaryFile.write(name, bytes, prefix: "import-hardening")
            let result = runCommand(["inspect", path])
            #expect(result.exitCode == 65, "\(name)")
            #expect(
                Self.firstLine(result.error)
                    == "error: \(path):1: \(encoding) text is not supported; convert the file to UTF-8", "\(name)")
        }
    }

    @Test("a GPX cut short names the innermost open element and its line")
    func truncatedGPX() throws {
        let cut = String(Self.gpx.prefix(Self.gpx.utf8.count * 6 / 10))
        let path = try TemporaryFile.write("cut.gpx", cut, prefix: "import-hardening")
        let result = runCommand(["inspect", path])
        #expect(result.exitCode == 65)
        #expect(
            Self.firstLine(result.error)
                == "error: \(path):4: file ends early: 5 elements are still open, the innermost <time> from line 4; "
                + "the file looks truncated")
    }

    @Test("an end tag that does not match is still reported as such, not as truncation")
    func mismatchedTagAtEnd() throws {
        let path = try TemporaryFile.write("m.gpx", "<gpx version=\"1.1\"><trk><trkseg>\n</trk>", prefix: "import-hardening")
        let result = runCommand(["inspect", path])
        #expect(result.exitCode == 65)
        #expect(Self.firstLine(result.error).contains("Opening and ending tag mismatch"))
    }

    @Test("bytes that do not match the declared encoding are one error, with nothing from libxml2 on stderr")
    func encodingErrorIsQuiet() throws {
        var bytes = Array(
            "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><name>"
                .utf8)
        bytes += [0x82, 0xFF, 0x80, 0xFE, 0xA0]
        bytes += Array("</name></trkpt></trkseg></trk></gpx>".utf8)
        let path = try TemporaryFile.write("enc.gpx", bytes, prefix: "import-hardening")
        let result = try runBinary(["inspect", path])
        #expect(result.exitCode == 65)
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(
            Self.firstLine(result.error).hasPrefix(
                "error: \(path):2: invalid XML: the bytes do not match the declared encoding (input conversion failed"))
    }

    @Test("a GPX of waypoints only says why none of them is a fix")
    func waypointsOnly() throws {
        var text = #"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">"# + "\n"
        for second in 0..<3 { text += #"<wpt lat="1" lon="2"><time>2020-01-01T00:00:0\#(second)Z</time></wpt>"# + "\n" }
        text += "</gpx>\n"
        let path = try TemporaryFile.write("w.gpx", text, prefix: "import-hardening")
        let result = runCommand(["inspect", path])
        #expect(result.exitCode == 0)
        #expect(
            result.output.contains(
                "skipped   3 GPX waypoints (<wpt>: marked places, not recorded fixes; only <trkpt> is) (lines 2, 3, 4)"))
        let json = runCommand(["inspect", path, "--format", "json"])
        #expect(json.output.contains(#""skipped":{"waypoint":3}"#))
    }

    @Test("the median interval of fixes centuries apart is measured, not saturated")
    func medianAcrossCenturies() throws {
        let path = try TemporaryFile.write(
            "far.csv", "time,lat,lon\n1677-09-22T00:00:00Z,1,2\n2262-04-10T00:00:00Z,1,2\n", prefix: "import-hardening")
        let result = runCommand(["inspect", path, "--format", "json"])
        #expect(result.exitCode == 0)
        #expect(result.output.contains(#""durationSeconds":18446486400,"medianIntervalSeconds":18446486400,"#))
    }
}
