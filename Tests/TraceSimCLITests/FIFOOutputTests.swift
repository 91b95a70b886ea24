import Foundation
import Synchronization
import TestSupport
import Testing

@testable import TraceSimCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A FIFO with nobody at the other end never stops TraceSim for good: a report (`--junit`,
/// `--markdown`, `convert`'s output, `tune --write-scenario`) to a FIFO nobody reads fails with
/// 73, a list or configuration file (`--traces-from`, `--fences`, `--expect`) from a FIFO nobody
/// writes fails with 66, each after a bounded wait (shortened here to 0.3 s) and saying why.
@Suite("FIFOs with no reader or writer")
struct FIFOOutputTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")
    static let wait = 0.3

    /// A fresh folder holding one FIFO, `pipe`, and an expectations file.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-fifo-\(UUID().uuidString)")
        var fifo: String { url.appendingPathComponent("pipe").path }
        var expectations: String { url.appendingPathComponent("expect.json").path }

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(.EEXIST) }
            try Data(#"{"thresholds": [{"scenario": "ideal", "metric": "collectionRatio", "min": 0.5}]}"#.utf8)
                .write(to: URL(fileURLWithPath: expectations))
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Runs the command line in-process with the shortened wait, on a thread of its own; returns
    /// the result and how long it took. Should the command block on `fifo` regardless (the
    /// defect these tests guard against), the test fails after 20 s instead of hanging: the
    /// other end is opened, which completes the blocked open. A reader is kept and drained
    /// until the command ends, so its writes never meet a closed pipe (SIGPIPE would end the
    /// test process); a writer is closed at once, so its reads end.
    static func run(_ arguments: [String], fifo: String) -> (result: CommandResult, seconds: Double) {
        let start = Date()
        let result = bounded(fifo: fifo, what: arguments[0]) {
            FIFOWait.$limitSeconds.withValue(wait) { runCommand(arguments) }
        }
        return (result ?? CommandResult(exitCode: -1, output: "", error: ""), Date().timeIntervalSince(start))
    }

    /// `body`'s value, run on a thread of its own and released as `run(_:fifo:)` says when it
    /// has not returned after 20 s.
    static func bounded<Value: Sendable>(fifo: String, what: String, _ body: @escaping @Sendable () -> Value) -> Value? {
        let outcome = Mutex<Value?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let value = body()
            outcome.withLock { $0 = value }
            finished.signal()
        }
        if finished.wait(timeout: .now() + 20) == .timedOut {
            Issue.record("\(what) blocked on the FIFO for 20 s")
            let reader = open(fifo, O_RDONLY | O_NONBLOCK)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while finished.wait(timeout: .now() + 0.1) == .timedOut {
                let writer = open(fifo, O_WRONLY | O_NONBLOCK)
                if writer >= 0 { close(writer) }
                if reader >= 0 { while read(reader, &buffer, buffer.count) > 0 {} }
            }
            if reader >= 0 { close(reader) }
        }
        return outcome.withLock { $0 }
    }

    @Test(
        "a report to a FIFO nobody reads fails with 73 after the wait, naming the FIFO",
        arguments: [
            ["check", bike, "--expect", "EXPECT", "--junit", "FIFO"],
            ["check", bike, "--expect", "EXPECT", "--markdown", "FIFO"],
            ["tune", bike, "--sweep", "distanceFilter=10", "--write-scenario", "FIFO"],
        ])
    func outputWithoutReader(arguments: [String]) throws {
        let folder = try Folder()
        let arguments = arguments.map { $0 == "FIFO" ? folder.fifo : $0 == "EXPECT" ? folder.expectations : $0 }
        let (result, seconds) = Self.run(arguments, fifo: folder.fifo)
        #expect(result.exitCode == 73, "\(result.error)")
        #expect(
            result.error.split(separator: "\n").last
                == "error: \(folder.fifo): cannot write: no process opened the FIFO for reading (waited 0.3 s)")
        #expect(seconds < 5)
    }

    @Test("convert to a FIFO names it by extension: a .csv FIFO nobody reads is 73 too")
    func convertToNamedFIFO() throws {
        let folder = try Folder()
        let fifo = folder.url.appendingPathComponent("out.csv").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let (result, _) = Self.run(["convert", Self.bike, fifo], fifo: fifo)
        #expect(result.exitCode == 73)
        #expect(result.error == "error: \(fifo): cannot write: no process opened the FIFO for reading (waited 0.3 s)\n")
    }

    @Test("a report to a FIFO that a reader opens is written whole, and the FIFO stays a FIFO")
    func outputWithReader() throws {
        let folder = try Folder()
        // Opened without blocking: a reader that is there before TraceSim opens the other end.
        let reader = open(folder.fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let (result, _) = Self.run(
            ["check", Self.bike, "--expect", folder.expectations, "--junit", folder.fifo], fifo: folder.fifo)
        #expect(result.exitCode == 0, "\(result.error)")
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(reader, &buffer, buffer.count)
        let text = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
        #expect(text.hasPrefix("<?xml") && text.hasSuffix("</testsuites>\n"), "\(text)")
    }

    @Test(
        "a list or configuration file from a FIFO nobody writes fails with 66 after the wait, naming the FIFO",
        arguments: [
            ["matrix", "--traces-from", "FIFO"], ["tune", "--traces-from", "FIFO"], ["matrix", bike, "--fences", "FIFO"],
            ["check", bike, "--expect", "FIFO"], ["replay", bike, "--scenario", "ideal", "--fences", "FIFO"],
        ])
    func inputWithoutWriter(arguments: [String]) throws {
        let folder = try Folder()
        let (result, seconds) = Self.run(arguments.map { $0 == "FIFO" ? folder.fifo : $0 }, fifo: folder.fifo)
        #expect(result.exitCode == 66, "\(result.error)")
        #expect(result.error == "error: \(folder.fifo): no process opened the FIFO for writing (waited 0.3 s)\n")
        #expect(seconds < 5)
        // The abandoned open was released: the FIFO has no reader left behind.
        let writer = open(folder.fifo, O_WRONLY | O_NONBLOCK)
        #expect(writer < 0 && errno == ENXIO)
        if writer >= 0 { close(writer) }
    }

    @Test("a list from a FIFO that a writer fills is read as a file is (the built binary, bounded)")
    func inputWithWriter() throws {
        let folder = try Folder()
        // The writer is bounded too: if TraceSim never opened the FIFO, it would give up.
        let feed = "(timeout 10 sh -c 'printf \"%s\\n\" \"\(Self.bike)\" > \"\(folder.fifo)\"' &)"
        let result = try ReadLimitHarness.run(
            ["matrix", "--traces-from", folder.fifo, "--scenarios", "ideal", "--format", "csv"], feed: feed)
        #expect(result.exitCode == 0, "\(result.error)")
        #expect(result.output.contains(Self.bike), "\(result.output)")
    }

    @Test("waiting for a writer gives up by itself, and leaves no open behind")
    func openForReadingTimesOut() throws {
        let folder = try Folder()
        let fifo = folder.fifo
        let outcome = Self.bounded(fifo: fifo, what: "openForReading") {
            FIFOWait.$limitSeconds.withValue(0.05) { FIFOWait.openForReading(fifo) }
        }
        #expect(outcome == .failure(.noPeer(seconds: 0.05)))
        if case .success(let descriptor) = outcome { close(descriptor) }
        let writer = open(folder.fifo, O_WRONLY | O_NONBLOCK)
        #expect(writer < 0 && errno == ENXIO)
        if writer >= 0 { close(writer) }
    }
}
