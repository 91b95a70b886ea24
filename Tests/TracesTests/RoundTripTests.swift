import Foundation
import TestSupport
import Testing
import Traces

/// IN → canonical → re-import must reproduce every field of every fix, bit for bit.
@Suite("Canonical round trips")
struct RoundTripTests {
    static let traces = Repository.bundledTraces + ["fixture:garmin-1.1.gpx", "fixture:logger-1.0.gpx"]

    static func load(_ name: String) throws -> Trace {
        if name.hasPrefix("fixture:") { return try TraceImporter.load(path: FixtureFiles.fixture(String(name.dropFirst(8)))) }
        let options = ImportOptions(nmeaStartDate: name.hasSuffix(".gga") ? CalendarDate("2020-02-07") : nil)
        return try TraceImporter.load(path: Repository.trace(name), options: options)
    }

    @Test("every field survives CSV, JSON Lines and GPX", arguments: traces, ExportFormat.allCases)
    func roundTrip(name: String, format: ExportFormat) throws {
        let original = try Self.load(name)
        #expect(!original.fixes.isEmpty)
        let exported = TraceExporter.export(original, as: format)
        let reimported = try TraceImporter.read(Array(exported.utf8), name: "roundtrip.\(format.rawValue)")
        #expect(reimported.fixes.count == original.fixes.count)
        for (before, after) in zip(original.fixes, reimported.fixes) where before != after {
            Issue.record("fix differs after \(format.rawValue): \(before) → \(after)")
            break
        }
        #expect(reimported.diagnostics.merged.count == 0)
        if format == .jsonLines {
            #expect(reimported.motionSamples == original.motionSamples)
        }
    }

    @Test("exported files are detected as TraceSim's own formats")
    func exportedFormats() throws {
        let trace = try Self.load("gpsd/skytraq-dgps.log")
        #expect(try TraceImporter.read(Array(TraceExporter.canonicalCSV(trace).utf8), name: "x").provenance.format == .canonicalCSV)
        #expect(try TraceImporter.read(Array(TraceExporter.jsonLines(trace).utf8), name: "x").provenance.format == .jsonLines)
        #expect(try TraceImporter.read(Array(TraceExporter.gpx(trace).utf8), name: "x").provenance.format == .gpx11)
    }

    @Test("the canonical CSV header is the documented column list")
    func csvHeader() throws {
        let trace = try Self.load("gpsd/skytraq-dgps.log")
        let lines = TraceExporter.canonicalCSV(trace).split(separator: "\n")
        #expect(lines[1] == "time,lat,lon,alt_m,h_acc_m,hdop,v_acc_m,vdop,speed_mps,speed_acc_mps,course_deg,course_acc_deg,provider")
        #expect(lines[2] == "2016-04-07T21:31:21.000Z,44.06882644,-121.314475755,1102.537,0.7211102550927979,,1.4,,0.0,,122.7,,gps")
    }

    @Test("JSON Lines leaves absent fields out and writes motion samples in time order")
    func jsonLinesShape() throws {
        let trace = try Self.load("gpsbabel/2013_JUNE.json")
        let lines = TraceExporter.jsonLines(trace).split(separator: "\n")
        #expect(lines[0] == #"{"time":"2013-06-01T16:06:54.349Z","activity":["walking"],"confidence":"medium","coarse":true}"#)
        #expect(
            lines.contains(#"{"time":"2013-06-01T16:13:41.460Z","lat":37.426857,"lon":-122.1441574,"h_acc_m":20.0,"provider":"unknown"}"#))
    }
}
