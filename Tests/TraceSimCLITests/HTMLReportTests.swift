import Foundation
import Testing

/// The HTML reports are one self-contained file each; these count the SVG elements they must hold.
@Suite("HTML reports")
struct HTMLReportTests {
    static let drive = repositoryRoot.appendingPathComponent(
        "Traces/gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea"
    ).path
    static let fences = repositoryRoot.appendingPathComponent("Documentation/Examples/fences.geojson").path

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("replay --format html: one circle per trace fix coloured by fate, the fences, seven bands, the 70 s cutoff")
    func runPage() throws {
        let html = runCommand(["replay", Self.drive, "--scenario", "wheninuse-locked", "--fences", Self.fences, "--format", "html"])
        #expect(html.exitCode == 0)
        let json = runCommand(["replay", Self.drive, "--scenario", "wheninuse-locked", "--format", "json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let metrics = try #require(object["metrics"] as? [String: Any])
        let page = html.output
        #expect(page.hasPrefix("<!DOCTYPE html>") && !page.contains("<script") && !page.contains("http://www.w3.org/1999"))
        let accepted = count("<circle class=\"accepted\"", in: page)
        let rejected = count("<circle class=\"rejected\"", in: page)
        let missed = count("<circle class=\"missed\"", in: page)
        #expect(accepted == metrics["acceptedFixes"] as? Int)
        #expect(accepted + rejected == metrics["deliveredFixes"] as? Int)
        #expect(accepted + rejected + missed == 1654)
        #expect(count("class=\"fence\"", in: page) == 2)
        #expect(count("<text class=\"label\"", in: page) == 7)
        #expect(count("<line class=\"cutoff\"", in: page) == 1)
        #expect(count("<svg ", in: page) == 2)
    }

    @Test("matrix --format html: a heatmap cell per scenario and metric")
    func matrixPage() {
        let result = runCommand(["matrix", Self.drive, "--format", "html"])
        #expect(result.exitCode == 0)
        #expect(count("<rect class=\"cell\"", in: result.output) == 14 * 4)
        #expect(count("<text class=\"label\"", in: result.output) == 14)
        #expect(result.output.contains(">wheninuse-locked</text>"))
    }
}
