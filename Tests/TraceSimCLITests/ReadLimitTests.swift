import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Test helpers for reads that could grow without bound or block.
enum ReadLimitHarness {
    /// Runs the built `tracesim` in a shell under a 2 GiB address-space limit and a 10 s
    /// timeout, so a read that grows without bound fails the test instead of the machine.
    /// `feed`, when given, is a shell pipeline whose output becomes standard input.
    static func run(_ arguments: [String], feed: String? = nil) throws -> CommandResult {
        let limited = #"ulimit -v 2097152; exec timeout 10 "$0" "$@""#
        let script = feed.map { "\($0) | (\(limited))" } ?? limited
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, BuiltTracesim.path] + arguments
        process.currentDirectoryURL = Repository.root
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes at once: a child filling one while the other is drained would stall.
        let errorData = Mutex(Data())
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = error.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            done.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return CommandResult(
            exitCode: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }

    /// The first line of `text`.
    static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: false)[0])
    }

    static let isRoot = getuid() == 0
}

/// A scratch folder with device nodes and FIFOs made inside it, never the system's own.
struct ReadLimitScratch: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
        return path(name)
    }

    /// A character device with the numbers of /dev/zero (1, 5) or /dev/urandom (1, 9).
    func device(_ name: String, minor: UInt32) throws -> String {
        let made = mknod(path(name), mode_t(S_IFCHR | 0o600), makedev(1, minor))
        guard made == 0 else { throw POSIXError(.EPERM) }
        return path(name)
    }

    func fifo(_ name: String) throws -> String {
        guard mkfifo(path(name), 0o600) == 0 else { throw POSIXError(.EEXIST) }
        return path(name)
    }
}

/// `makedev` for the small numbers used here (glibc's layout; not exported to Swift).
private func makedev(_ major: UInt32, _ minor: UInt32) -> dev_t {
    #if canImport(Glibc)
        return dev_t((minor & 0xFF) | ((major & 0xFFF) << 8))
    #else
        return dev_t(Int32(major) << 24 | Int32(minor))
    #endif
}

@Suite("reading is bounded: devices, pipes and FIFOs")
struct ReadLimitTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")

    @Test("inspect of a zero device fails at its first NUL byte instead of reading forever", .enabled(if: ReadLimitHarness.isRoot))
    func inspectZeroDevice() throws {
        let scratch = try ReadLimitScratch()
        let zero = try scratch.device("zero", minor: 5)
        let result = try ReadLimitHarness.run(["inspect", zero])
        #expect(result.exitCode == 65, "\(result.error)")
        #expect(ReadLimitHarness.firstLine(result.error) == "error: \(zero):1:1: NUL byte in a text format (is this a binary file?)")
    }

    @Test("--fences naming a random device fails fast at a NUL byte", .enabled(if: ReadLimitHarness.isRoot))
    func fencesRandomDevice() throws {
        let scratch = try ReadLimitScratch()
        let random = try scratch.device("urandom", minor: 9)
        let result = try ReadLimitHarness.run(["track", Self.bike, "--fences", random])
        #expect(result.exitCode == 65, "\(result.error)")
        #expect(ReadLimitHarness.firstLine(result.error).hasPrefix("error: \(random):"))
        #expect(ReadLimitHarness.firstLine(result.error).hasSuffix(": NUL byte in a text format (is this a binary file?)"))
    }

    @Test("a configuration file from a pipe stops at 256 MiB with a message")
    func configurationPipeIsCapped() throws {
        let result = try ReadLimitHarness.run(
            ["track", Self.bike, "--fences", "/dev/stdin"], feed: "yes ' ' | head -c 270000000")
        #expect(result.exitCode == 66, "\(result.error)")
        #expect(
            ReadLimitHarness.firstLine(result.error)
                == "error: /dev/stdin: larger than 256 MiB, the limit for a configuration file from a pipe or device")
    }

    @Test("a trace from a FIFO named on the command line is still read")
    func traceFromFIFO() throws {
        let scratch = try ReadLimitScratch()
        let fifo = try scratch.fifo("trace.tcx")
        let result = try ReadLimitHarness.run(["inspect", fifo], feed: "(cat '\(Self.bike)' > '\(fifo)' &)")
        #expect(result.exitCode == 0, "\(result.error)")
        #expect(result.output.contains("fixes     1812"), "\(result.output)")
    }

    @Test("a scenario's geofences naming a device is refused as not a regular file", .enabled(if: ReadLimitHarness.isRoot))
    func scenarioGeofencesDevice() throws {
        let scratch = try ReadLimitScratch()
        _ = try scratch.device("zero", minor: 5)
        let scenario = try scratch.write("s.json", #"{"name": "s", "geofences": "zero"}"#)
        let result = try ReadLimitHarness.run(["matrix", Self.bike, "--scenarios", scenario])
        #expect(result.exitCode == 66, "\(result.error)")
        #expect(
            ReadLimitHarness.firstLine(result.error)
                == "error: \(scratch.path("zero")): not a regular file (a character device) "
                + "(named in \(scenario), resolved against its folder)")
    }

    @Test("a scenario's geofences naming a FIFO is refused at once, not waited on")
    func scenarioGeofencesFIFO() throws {
        let scratch = try ReadLimitScratch()
        let fifo = try scratch.fifo("fences.geojson")
        let scenario = try scratch.write("s.json", #"{"name": "s", "geofences": "fences.geojson"}"#)
        let result = try ReadLimitHarness.run(["matrix", Self.bike, "--scenarios", scenario])
        #expect(result.exitCode == 66, "\(result.error)")
        #expect(
            ReadLimitHarness.firstLine(result.error)
                == "error: \(fifo): not a regular file (a FIFO) (named in \(scenario), resolved against its folder)")
    }

    @Test("a geofence path with a NUL byte is refused, not cut at the NUL")
    func geofencePathWithNUL() throws {
        let scratch = try ReadLimitScratch()
        try scratch.write("a", #"{"geofences": []}"#)
        let scenario = try scratch.write("s.json", #"{"name": "s", "geofences": "a\u0000.geojson"}"#)
        let result = runCommand(["matrix", Self.bike, "--scenarios", scenario])
        #expect(result.exitCode == 66, "\(result.error)")
        #expect(
            ReadLimitHarness.firstLine(result.error)
                == "error: \(scratch.path("a"))\\0.geojson: the path contains a NUL byte "
                + "(named in \(scenario), resolved against its folder)")
    }
}
