import Foundation

/// The `tracesim` binary the end-to-end tests run as a process.
package enum BuiltTracesim {
    /// `TRACESIM` when it is set (CI's slow tier points it at its one release build), otherwise
    /// the debug build beside the test bundle.
    package static var path: String {
        if let chosen = ProcessInfo.processInfo.environment["TRACESIM"], !chosen.isEmpty { return chosen }
        return productsFolder.appendingPathComponent("tracesim").path
    }

    /// The build products folder: the test bundle sits in it next to the `tracesim` binary.
    package static var productsFolder: URL {
        var url = Bundle.main.bundleURL
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("tracesim").path) { return url }
            url.deleteLastPathComponent()
        }
        return Bundle.main.bundleURL
    }
}
