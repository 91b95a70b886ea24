import Foundation
import Scenarios
import TestSupport
import Testing
import TraceSimCLI
import TraceSimCoreLocation

/// Issue 30 §5 as a user sees it: an app that handles only `didUpdateLocations`, replayed with
/// location denied, gets one information line for the callbacks it leaves to their defaults and
/// a named warning for the error it never hears, warnings before information, in text and JSON.
@Suite("Diagnostic severities on the command line")
struct DiagnosticSeverityCommandTests {
    static let drive = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
    static let app = EngineUnderTest.coreLocationApp(named: "only-locations") { OnlyLocationsApp() }
    static let warning =
        "locationManager(_:didFailWithError:) reached OnlyLocationsApp without a handler while location "
        + "authorization is denied: the app is never told that no location will come (kCLErrorDenied)"

    @Test("text: the warning names didFailWithError and why it matters; the callbacks are one information line")
    func text() {
        let result = runCommand(["replay", Self.drive, "--scenario", "denied"], engine: Self.app)
        #expect(result.exitCode == 0, "\(result.error)")
        let block = result.output.components(separatedBy: "\nengine diagnostics:\n").last ?? ""
        #expect(
            block.split(separator: "\n") == [
                "  warning: 1× \(Self.warning) (first at +0.0 s)",
                "  information: 2 optional callbacks without a handler in OnlyLocationsApp: "
                    + "locationManagerDidChangeAuthorization(_:) ×1, locationManager(_:didChangeAuthorization:) ×1",
            ], "\(result.output)")
    }

    @Test("JSON: each message with its severity, the warning first")
    func json() throws {
        let result = runCommand(["replay", Self.drive, "--scenario", "denied", "--format", "json"], engine: Self.app)
        #expect(result.exitCode == 0, "\(result.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["severity"] as? String } == ["warning", "information", "information"])
        #expect(diagnostics.first?["message"] as? String == Self.warning)
    }

    @Test("an app allowed location hears no such warning: the unhandled error is information only while denied")
    func allowed() {
        let result = runCommand(["replay", Self.drive, "--scenario", "always-precise"], engine: Self.app)
        #expect(result.exitCode == 0, "\(result.error)")
        #expect(!result.output.contains("warning:"), "\(result.output)")
    }
}

/// Starts updates at launch and handles only `didUpdateLocations`.
final class OnlyLocationsApp: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()
    var count = 0

    override init() {
        super.init()
        manager.delegate = self
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        count += locations.count
    }
}
