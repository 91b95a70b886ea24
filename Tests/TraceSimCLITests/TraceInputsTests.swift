import Foundation
import Synchronization
import TestSupport
import Testing
import Traces

@testable import TraceSimCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("trace inputs: --traces-from lists and directories walked")
struct TraceInputsTests {
    /// A scratch folder removed with the value.
    final class Scratch {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-inputs-\(UUID().uuidString)")
            .path
        init() throws { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Writes `bytes` at `relative`, making its folders.
        @discardableResult
        func write(_ relative: String, _ bytes: [UInt8]) throws -> String {
            let path = root + "/" + relative
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }

        @discardableResult
        func write(_ relative: String, _ text: String) throws -> String { try write(relative, Array(text.utf8)) }

        /// Copies a bundled trace to `relative`.
        @discardableResult
        func copy(_ trace: String, to relative: String) throws -> String {
            try write(relative, try bytes(trace))
        }

        func link(_ relative: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: root + "/" + relative, withDestinationPath: target)
        }
    }

    static func bytes(_ trace: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: Repository.trace(trace)))) }

    /// A console that keeps what is written to standard error.
    final class Captured: Sendable {
        private let text = Mutex("")
        var console: Console {
            Console(output: { _ in }, error: { line in self.text.withLock { $0 += line } })
        }
        var lines: [String] { text.withLock { $0 }.split(separator: "\n").map(String.init) }
    }

    static func expand(
        _ positionals: [String], lists: [String] = [], standardInput: [UInt8]? = nil, console: Console
    ) throws -> [String] {
        try TraceInputs.expand(positionals, lists: lists, command: "matrix", console: console) {
            () throws(TraceFileError) in
            guard let standardInput else {
                Issue.record("standard input read")
                return []
            }
            return standardInput
        }
    }

    /// The error `body` throws, or `nil`.
    static func failure(_ body: () throws -> Void) -> (any Error)? {
        do { try body() } catch { return error }
        return nil
    }

    // MARK: Directories

    /// A tree with something of every kind a walk meets.
    static func fleet(_ scratch: Scratch) throws {
        try scratch.copy("gpsbabel/bike.tcx", to: "fleet/a/bike.tcx")
        try scratch.copy("gpsbabel/google_ext.kml", to: "fleet/a-b.kml")
        try scratch.copy("gpsd/haicom-305N.log", to: "fleet/Upper.log")
        try scratch.copy("gnss_lib_py/pixel6.txt", to: "fleet/z/deep/er/pixel6.txt")
        try scratch.write("fleet/z/deep/tunnel.json.gz", try StandardInputTests.gzip(try bytes("mapbox-navigation-ios/tunnel.json")))
        try scratch.copy("gpsd/skytraq-dgps.log", to: "fleet/é.log")
        try scratch.write("fleet/README.md", "# Drives of the week\n")
        try scratch.write("fleet/a/empty.gpx", "")
        try scratch.copy("gpsd/skytraq-dgps.log", to: "fleet/.hidden.log")
        try scratch.copy("gpsd/skytraq-dgps.log", to: "fleet/.git/objects/log.nmea")
        try scratch.copy("gpsbabel/24173415.CSV", to: "outside/columbus.csv")
        try scratch.link("fleet/linked.csv", to: scratch.root + "/outside/columbus.csv")
        try scratch.link("fleet/folder-link", to: scratch.root + "/outside")
        try scratch.link("fleet/broken.gpx", to: scratch.root + "/outside/nothing.gpx")
    }

    @Test("a directory gives its traces recursively in byte order of the joined paths, the rest noted")
    func walk() throws {
        let scratch = try Scratch()
        try Self.fleet(scratch)
        let captured = Captured()
        let inputs = try Self.expand([scratch.root + "/fleet"], console: captured.console)
        let fleet = scratch.root + "/fleet/"
        // Byte order: 'U' before 'a', '-' before '/', 'é' (0xC3 0xA9) after 'z'.
        #expect(
            inputs
                == [
                    "Upper.log", "a-b.kml", "a/bike.tcx", "linked.csv", "z/deep/er/pixel6.txt", "z/deep/tunnel.json.gz",
                    "é.log",
                ].map { fleet + $0 })
        #expect(
            captured.lines == [
                "note: \(fleet)README.md: not a trace any importer recognises; skipped",
                "note: \(fleet)a/empty.gpx: not a trace any importer recognises; skipped",
                "note: \(fleet)broken.gpx: a broken symbolic link; skipped",
                "note: \(fleet)folder-link: a symbolic link to a directory, not followed; skipped",
            ])
    }

    @Test("a trailing slash is not doubled")
    func joining() throws {
        let scratch = try Scratch()
        try scratch.copy("gpsbabel/bike.tcx", to: "fleet/bike.tcx")
        let captured = Captured()
        #expect(try Self.expand([scratch.root + "/fleet/"], console: captured.console) == [scratch.root + "/fleet/bike.tcx"])
        #expect(captured.lines.isEmpty)
    }

    @Test("the bundled Traces folder gives its fourteen traces, its licences and source list noted")
    func bundled() throws {
        let captured = Captured()
        let folder = Repository.tracesFolder.path
        let inputs = try Self.expand([folder], console: captured.console)
        #expect(
            inputs
                == [
                    "gnss_lib_py/pixel6.nmea", "gnss_lib_py/pixel6.txt",
                    "gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga",
                    "gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea",
                    "gps-measurement-tools/pseudoranges_log_2016_08_22_14_45_50.txt", "gpsbabel/2013_JUNE.json",
                    "gpsbabel/24173415.CSV", "gpsbabel/GPSData000001-A810-Doriel.txt", "gpsbabel/bike.tcx",
                    "gpsbabel/google_ext.kml", "gpsd/haicom-305N.log", "gpsd/skytraq-dgps.log",
                    "mapbox-navigation-ios/38512A3B-032C-452D-95EA-06C845B64780.json", "mapbox-navigation-ios/tunnel.json",
                ].map { folder + "/" + $0 })
        #expect(captured.lines.count == 6)
        #expect(captured.lines.first == "note: \(folder)/LICENSES/gnss_lib_py_LICENSE.txt: not a trace any importer recognises; skipped")
        #expect(captured.lines.last == "note: \(folder)/SOURCES.md: not a trace any importer recognises; skipped")
    }

    @Test("files named explicitly are never filtered, missing ones included; directories expand in place")
    func namedFiles() throws {
        let scratch = try Scratch()
        try Self.fleet(scratch)
        let readme = scratch.root + "/fleet/README.md"
        let missing = scratch.root + "/absent.gpx"
        let captured = Captured()
        let inputs = try Self.expand([readme, scratch.root + "/fleet/a", missing, readme], console: captured.console)
        #expect(inputs == [readme, scratch.root + "/fleet/a/bike.tcx", missing, readme])
        #expect(captured.lines == ["note: \(scratch.root)/fleet/a/empty.gpx: not a trace any importer recognises; skipped"])
    }

    @Test("a named hidden directory, or a link to a directory, is walked; hidden entries inside it are not")
    func namedHiddenDirectory() throws {
        let scratch = try Scratch()
        try scratch.copy("gpsbabel/bike.tcx", to: ".cache/bike.tcx")
        try scratch.copy("gpsbabel/bike.tcx", to: ".cache/.old/bike.tcx")
        try scratch.link("cache-link", to: scratch.root + "/.cache")
        let captured = Captured()
        #expect(
            try Self.expand([scratch.root + "/.cache", scratch.root + "/cache-link"], console: captured.console) == [
                scratch.root + "/.cache/bike.tcx", scratch.root + "/cache-link/bike.tcx",
            ])
    }

    @Test("a directory with no trace gives nothing, for the caller to judge")
    func emptyExpansion() throws {
        let scratch = try Scratch()
        try scratch.write("docs/README.md", "nothing here\n")
        try FileManager.default.createDirectory(atPath: scratch.root + "/none", withIntermediateDirectories: true)
        let captured = Captured()
        #expect(try Self.expand([scratch.root + "/docs", scratch.root + "/none"], console: captured.console).isEmpty)
        #expect(captured.lines == ["note: \(scratch.root)/docs/README.md: not a trace any importer recognises; skipped"])
    }

    @Test("a FIFO in a directory is noted, never opened")
    func fifo() throws {
        let scratch = try Scratch()
        try scratch.copy("gpsbabel/bike.tcx", to: "fleet/bike.tcx")
        #expect(mkfifo(scratch.root + "/fleet/live.nmea", 0o600) == 0)
        let captured = Captured()
        #expect(try Self.expand([scratch.root + "/fleet"], console: captured.console) == [scratch.root + "/fleet/bike.tcx"])
        #expect(captured.lines == ["note: \(scratch.root)/fleet/live.nmea: not a regular file (a FIFO); skipped"])
    }

    @Test("--quiet drops the notes, not the traces")
    func quiet() throws {
        let scratch = try Scratch()
        try Self.fleet(scratch)
        let captured = Captured()
        var console = captured.console
        console.isQuiet = true
        #expect(try Self.expand([scratch.root + "/fleet"], console: console).count == 7)
        #expect(captured.lines.isEmpty)
    }

    @Test(
        "a directory that cannot be read fails with 66, naming it",
        .enabled(if: getuid() != 0, "root reads every directory"))
    func unreadableDirectory() throws {
        let scratch = try Scratch()
        try scratch.copy("gpsbabel/bike.tcx", to: "fleet/locked/bike.tcx")
        #expect(chmod(scratch.root + "/fleet/locked", 0) == 0)
        defer { chmod(scratch.root + "/fleet/locked", 0o700) }
        let error = Self.failure { _ = try Self.expand([scratch.root + "/fleet"], console: Captured().console) }
        #expect(
            error as? CommandFailure
                == CommandFailure(
                    .noInput, "error: \(scratch.root)/fleet/locked: cannot read the directory: permission denied"))
    }

    // MARK: --traces-from

    @Test("a list: one path a line, CRLF, blank and # lines skipped, spaces kept, after the positionals")
    func list() throws {
        let scratch = try Scratch()
        try Self.fleet(scratch)
        let list = try scratch.write(
            "list.txt",
            Array([0xEF, 0xBB, 0xBF])
                + Array("# week 12\r\nb.gpx\r\n\r\n   \r\n\t\r\n with spaces .gpx \r\n\(scratch.root)/fleet/a\r\nlast".utf8))
        let captured = Captured()
        let inputs = try Self.expand(["first.gpx"], lists: [list], console: captured.console)
        #expect(inputs == ["first.gpx", "b.gpx", " with spaces .gpx ", scratch.root + "/fleet/a/bike.tcx", "last"])
        #expect(captured.lines.count == 1)
    }

    @Test("several lists are read in order")
    func severalLists() throws {
        let scratch = try Scratch()
        let one = try scratch.write("one.txt", "a\nb\n")
        let two = try scratch.write("two.txt", "c\n")
        #expect(try Self.expand([], lists: [two, one, two], console: Captured().console) == ["c", "a", "b", "c"])
    }

    @Test("a missing list fails with 66; a directory as a list says how to read it")
    func missingList() throws {
        let scratch = try Scratch()
        let missing = scratch.root + "/absent.txt"
        #expect(
            Self.failure { _ = try Self.expand([], lists: [missing], console: Captured().console) } as? CommandFailure
                == CommandFailure(.noInput, "error: \(missing): no such file"))
        #expect(
            Self.failure { _ = try Self.expand([], lists: [scratch.root], console: Captured().console) } as? CommandFailure
                == CommandFailure(
                    .noInput,
                    "error: \(scratch.root): is a directory, not a list of paths (name it as a trace to read every trace in it)"))
    }

    @Test("invalid UTF-8 or a NUL byte fails with 65 at its line")
    func badBytes() throws {
        let scratch = try Scratch()
        let latin1 = try scratch.write("latin1.txt", Array("a.gpx\r\n\r\n".utf8) + [0x63, 0x61, 0x66, 0xE9, 0x0A] + Array("b\n".utf8))
        #expect(
            Self.failure { _ = try Self.expand([], lists: [latin1], console: Captured().console) } as? CommandFailure
                == CommandFailure(.dataError, "error: \(latin1):3: not UTF-8 text"))
        let binary = try scratch.write("binary.txt", Array("a.gpx\n".utf8) + [0x62, 0, 0x0A])
        #expect(
            Self.failure { _ = try Self.expand([], lists: [binary], console: Captured().console) } as? CommandFailure
                == CommandFailure(.dataError, "error: \(binary):2: NUL byte in a list of paths (is this a binary file?)"))
        // A list saved as UTF-16 fails at once, not path by path.
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "a.gpx\n".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let wide = try scratch.write("wide.txt", utf16)
        #expect(
            (Self.failure { _ = try Self.expand([], lists: [wide], console: Captured().console) } as? CommandFailure)?.exitCode
                == .dataError)
    }

    @Test("--traces-from - reads the list from standard input, named <stdin> in errors")
    func standardInputList() throws {
        let inputs = try Self.expand(["x.gpx"], lists: ["-"], standardInput: Array("a.gpx\nb.gpx\n".utf8), console: Captured().console)
        #expect(inputs == ["x.gpx", "a.gpx", "b.gpx"])
        #expect(
            Self.failure {
                _ = try Self.expand([], lists: ["-"], standardInput: [0x61, 0xFF], console: Captured().console)
            } as? CommandFailure == CommandFailure(.dataError, "error: <stdin>:1: not UTF-8 text"))
    }

    @Test("standard input is read once: a '-' trace beside --traces-from - is a usage error")
    func standardInputOnce() throws {
        let console = Captured().console
        // Refused before standard input is read (the closure records an issue if it is).
        let positional = Self.failure { _ = try Self.expand(["-"], lists: ["-"], console: console) }
        #expect((positional as? UsageError)?.message.hasPrefix("standard input ('-') can be read only once") == true)
        let twice = Self.failure { _ = try Self.expand([], lists: ["-", "-"], console: console) }
        #expect((twice as? UsageError)?.message.contains("given 2 times") == true)
        // The list itself names '-'.
        let listed = Self.failure { _ = try Self.expand([], lists: ["-"], standardInput: Array("a\n-\n".utf8), console: console) }
        #expect((listed as? UsageError)?.message.hasPrefix("standard input ('-') can be read only once") == true)
        // A list file may name '-' once, as a positional may.
        let scratch = try Scratch()
        let list = try scratch.write("list.txt", "a\n-\n")
        #expect(try Self.expand([], lists: [list], console: console) == ["a", "-"])
        #expect(Self.failure { _ = try Self.expand(["-"], lists: [list], console: console) } is UsageError)
    }

    @Test("a 10,000-line list is read quickly, in order")
    func longList() throws {
        let scratch = try Scratch()
        let names = (0..<10_000).map { "drives/driver-\($0)/week.gpx" }
        let list = try scratch.write("fleet.txt", names.joined(separator: "\n") + "\n")
        let clock = ContinuousClock()
        var inputs: [String] = []
        let elapsed = try clock.measure { inputs = try Self.expand([], lists: [list], console: Captured().console) }
        #expect(inputs == names)
        #expect(elapsed < .seconds(2), "\(elapsed)")
    }

    @Test("the option parses, repeats, and reaches expand through ParsedArguments")
    func parsed() throws {
        let scratch = try Scratch()
        let one = try scratch.write("one.txt", "a\n")
        let two = try scratch.write("two.txt", "b\n")
        let declaration = CommandDeclaration(name: "matrix", overview: "test", options: TraceInputs.declared)
        let parsed = try ParsedArguments(["x", "--traces-from", one, "--traces-from=\(two)"], declaration: declaration)
        #expect(try TraceInputs.expand(parsed.positionals, parsed, command: "matrix", console: Captured().console) == ["x", "a", "b"])
        #expect(declaration.help.contains("--traces-from <file>"))
    }
}

extension TraceInputsTests {
    @Test("a directory of 240 traces and 24 other files over 12 folders: every trace in order, a note for each other")
    func manyFiles() throws {
        let scratch = try Scratch()
        let nmea = Data(try Self.bytes("gpsd/haicom-305N.log").prefix(4096))
        var expected: [String] = []
        for folder in 0..<12 {
            let directory = scratch.root + "/fleet/d\(folder)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for file in 0..<20 {
                expected.append(directory + "/t\(file).log")
                #expect(FileManager.default.createFile(atPath: expected[expected.count - 1], contents: nmea))
            }
            for name in ["notes-a.txt", "notes-b.txt"] {
                #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data("a".utf8)))
            }
        }
        let captured = Captured()
        let inputs = try Self.expand([scratch.root + "/fleet"], console: captured.console)
        #expect(inputs == expected.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        // Byte order, not numeric: d0, d1, d10 … and t0, t1, t10 ….
        #expect(inputs.prefix(3) == ArraySlice(["t0", "t1", "t10"].map { scratch.root + "/fleet/d0/\($0).log" }))
        #expect(inputs[20] == scratch.root + "/fleet/d1/t0.log")
        #expect(captured.lines.count == 24)
        #expect(captured.lines.first == "note: \(scratch.root)/fleet/d0/notes-a.txt: not a trace any importer recognises; skipped")
    }
}

/// Paths from lists and walks reach messages escaped and shortened: a CR-only list is one line
/// whose path holds raw CRs, and a list line may be megabytes long.
@Suite("trace inputs: paths in messages are escaped and shortened")
struct TraceInputPathMessageTests {
    typealias Scratch = TraceInputsTests.Scratch

    @Test("a list with CR-only line ends: the error shows each CR as \\r, never a raw CR")
    func crOnlyList() throws {
        let scratch = try Scratch()
        let list = try scratch.write("list.txt", "a.gpx\rb.gpx\r")
        let result = runCommand(["matrix", "--traces-from", list, "--scenarios", "ideal"])
        #expect(result.exitCode == 66)
        #expect(result.error.hasPrefix("error: a.gpx\\rb.gpx: no such file"), "\(result.error)")
        #expect(!result.error.contains("\r"))
    }

    @Test("a megabyte path from a list is cut at 256 characters, with its size in bytes")
    func hugePath() throws {
        let scratch = try Scratch()
        // The issue's case was 10 MB; 1 MB shows the same and keeps the test fast in debug builds.
        let path = String(repeating: "x", count: 1_000_000)
        let list = try scratch.write("list.txt", path + "\n")
        let result = runCommand(["matrix", "--traces-from", list, "--scenarios", "ideal"])
        #expect(result.exitCode == 66)
        #expect(
            result.error.hasPrefix("error: " + String(repeating: "x", count: 256) + "… (1000000 bytes): "),
            "\(result.error.prefix(400))")
        #expect(result.error.utf8.count < 1000)
    }

    @Test("a walk's note about a file named with an escape sequence shows the escape, not the sequence")
    func escapeInWalkNote() throws {
        let scratch = try Scratch()
        try scratch.copy("gpsbabel/bike.tcx", to: "fleet/bike.tcx")
        try scratch.write("fleet/bad\u{1B}[2Jname.txt", "hello")
        let captured = TraceInputsTests.Captured()
        #expect(try TraceInputsTests.expand([scratch.root + "/fleet"], console: captured.console).count == 1)
        #expect(
            captured.lines == ["note: \(scratch.root)/fleet/bad\\u{1B}[2Jname.txt: not a trace any importer recognises; skipped"])
    }

    @Test("ordinary paths, standard input and long ones: MessageText.path")
    func messageText() {
        #expect(MessageText.path("Traces/gpsbabel/bike.tcx") == "Traces/gpsbabel/bike.tcx")
        #expect(MessageText.path("dir with spaces/é.gpx") == "dir with spaces/é.gpx")
        #expect(MessageText.path("-") == "<stdin>")
        #expect(MessageText.path("a\nb\tc\u{7F}") == "a\\nb\\tc\\u{7F}")
        let exact = String(repeating: "y", count: 256)
        #expect(MessageText.path(exact) == exact)
        #expect(MessageText.path(exact + "é") == exact + "… (258 bytes)")
    }
}
