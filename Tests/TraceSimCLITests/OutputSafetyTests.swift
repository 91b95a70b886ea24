import Foundation
import TestSupport
import Testing

/// Output safety: a failed write to standard output or error is reported (exit 74), never a trap;
/// files TraceSim writes are never left partial and never replace what the path really is; and an
/// output never overwrites an input or another output.
@Suite("output safety")
struct OutputSafetyTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")
    static let isRoot = geteuid() == 0
    static let expectations = #"{"thresholds": [{"scenario": "always-precise", "metric": "collectionRatio", "max": 1}]}"#

    /// A fresh folder under the system's temporary folder, removed by `cleanUp`.
    static func makeFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-out-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    static func cleanUp(_ folder: String) { try? FileManager.default.removeItem(atPath: folder) }

    static func write(_ text: String, _ path: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }

    static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// Runs a shell tool that makes a test fixture (`mknod`, `mkfifo`).
    static func tool(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(arguments)")
    }

    /// A character device in `folder` with the numbers of /dev/full (1, 7) or /dev/null (1, 3);
    /// making one needs root.
    static func device(_ name: String, minor: Int, in folder: String) throws -> String {
        let path = folder + "/" + name
        try tool(["mknod", path, "c", "1", String(minor)])
        return path
    }

    /// Runs the `tracesim` binary with the given standard output and error (a `FileHandle` or a
    /// `Pipe`); returns the exit status and what a piped standard error held.
    static func run(
        _ arguments: [String], output: Any, error: Any = Pipe(), executable: String? = nil
    ) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? BuiltTracesim.path)
        process.arguments = arguments
        process.currentDirectoryURL = Repository.root
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let text = (error as? Pipe).map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        process.waitUntilExit()
        return (process.terminationStatus, text ?? "")
    }

    static func firstLine(_ text: String) -> String { String(text.split(separator: "\n").first ?? "") }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode : 0
    }

    // MARK: - standard output and error

    @Test(
        "`scenarios > full device` and `matrix --format json > full device` exit 74 with an output error, not a trap",
        .enabled(if: isRoot), arguments: [["scenarios"], ["matrix", bike, "--format", "json"]])
    func standardOutputFull(arguments: [String]) throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let full = try #require(FileHandle(forWritingAtPath: try Self.device("full", minor: 7, in: folder)))
        let result = try Self.run(arguments, output: full)
        #expect(result.status == 74)
        #expect(Self.firstLine(result.error) == "output error: stdout: No space left on device")
    }

    @Test("`inspect x 2> full device` exits 74; nothing more is written", .enabled(if: isRoot))
    func standardErrorFull() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let full = try #require(FileHandle(forWritingAtPath: try Self.device("full", minor: 7, in: folder)))
        let output = Pipe()
        // A missing file: the command's only output is its diagnostic on standard error.
        let result = try Self.run(["inspect", folder + "/x.gpx"], output: output, error: full)
        #expect(result.status == 74)
        #expect(output.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }

    @Test("`matrix --format json` into a pipe whose reader leaves after 10 bytes exits 74 (SIGPIPE ignored)")
    func closedPipe() throws {
        let pipe = Pipe()
        #if os(Linux)
            // The smallest pipe, so the report cannot fit before the reader goes away.
            _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, 1031 /* F_SETPIPE_SZ */, 4096)
        #endif
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltTracesim.path)
        process.arguments = ["matrix", Self.bike, "--format", "json"]
        process.currentDirectoryURL = Repository.root
        let error = Pipe()
        process.standardOutput = pipe
        process.standardError = error
        try process.run()
        try pipe.fileHandleForWriting.close()
        let head = try pipe.fileHandleForReading.read(upToCount: 10) ?? Data()
        #expect(head.count == 10)
        try pipe.fileHandleForReading.close()
        let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 74)
        #expect(Self.firstLine(text) == "output error: stdout: Broken pipe")
    }

    @Test("a closed standard output (EBADF) exits 74")
    func closedStandardOutput() throws {
        let binary = BuiltTracesim.path
        let result = try Self.run(
            ["-c", "exec >&- && exec \"$0\" scenarios", binary], output: Pipe(), executable: "/bin/sh")
        #expect(result.status == 74)
        #expect(Self.firstLine(result.error) == "output error: stdout: Bad file descriptor")
    }

    // MARK: - what a file output path is

    @Test("a report through a symbolic link replaces the link's target; the link survives")
    func symbolicLink() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let expect = folder + "/expect.json"
        try Self.write(Self.expectations, expect)
        try Self.write("old", folder + "/target.xml")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.xml", withDestinationPath: "target.xml")
        let result = runCommand(["check", Self.bike, "--expect", expect, "--junit", folder + "/link.xml"])
        #expect(result.exitCode == 0)
        #expect(result.error == "")
        #expect(Self.mode(folder + "/link.xml") & S_IFMT == S_IFLNK)
        #expect(try Self.read(folder + "/target.xml").hasPrefix("<?xml"))
    }

    @Test("a dangling symbolic link creates its target")
    func danglingLink() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.csv", withDestinationPath: "made.csv")
        let result = runCommand(["convert", "--quiet", Self.bike, folder + "/link.csv"])
        #expect(result.exitCode == 0)
        #expect(Self.mode(folder + "/link.csv") & S_IFMT == S_IFLNK)
        #expect(try Self.read(folder + "/made.csv").hasPrefix("# TraceSim canonical CSV"))
    }

    @Test("`--markdown` to a device node writes it and leaves it a device", .enabled(if: isRoot))
    func deviceNode() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let null = try Self.device("null", minor: 3, in: folder)
        let expect = folder + "/expect.json"
        try Self.write(Self.expectations, expect)
        let result = runCommand(["check", Self.bike, "--expect", expect, "--markdown", null])
        #expect(result.exitCode == 0)
        #expect(result.error == "")
        #expect(Self.mode(null) & S_IFMT == S_IFCHR)
    }

    @Test("`--junit` to a FIFO writes into it and leaves it a FIFO")
    func fifo() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let fifo = folder + "/report.fifo"
        try Self.tool(["mkfifo", fifo])
        // A reader that is already there, so opening for writing does not wait.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let expect = folder + "/expect.json"
        try Self.write(Self.expectations, expect)
        let result = runCommand(["check", Self.bike, "--expect", expect, "--junit", fifo])
        #expect(result.exitCode == 0)
        #expect(result.error == "")
        #expect(Self.mode(fifo) & S_IFMT == S_IFIFO)
        var buffer = [UInt8](repeating: 0, count: 5)
        #expect(Glibc.read(reader, &buffer, 5) == 5)
        #expect(String(decoding: buffer, as: UTF8.self) == "<?xml")
    }

    @Test("a read-only file is refused (73), root included, and keeps its content and mode")
    func readOnlyFile() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let output = folder + "/kept.csv"
        try Self.write("precious", output)
        chmod(output, 0o444)
        let result = runCommand(["convert", Self.bike, output])
        #expect(result.exitCode == 73)
        #expect(
            Self.firstLine(result.error)
                == "error: \(output): cannot write: the file is read-only (mode 444); TraceSim does not override that"
                || (!Self.isRoot && Self.firstLine(result.error) == "error: \(output): cannot write: Permission denied"),
            "\(result.error)")
        #expect(try Self.read(output) == "precious")
        #expect(Self.mode(output) & 0o7777 == 0o444)
    }

    @Test("a writable file in a folder that is not cannot be replaced whole: refused (73), untouched", .disabled(if: isRoot))
    func lockedFolder() throws {
        let folder = try Self.makeFolder()
        defer {
            chmod(folder, 0o755)
            Self.cleanUp(folder)
        }
        let output = folder + "/out.csv"
        try Self.write("old", output)
        chmod(folder, 0o555)
        let result = runCommand(["convert", "--quiet", Self.bike, output])
        #expect(result.exitCode == 73)
        #expect(
            Self.firstLine(result.error)
                == "error: \(output): cannot write: cannot make a temporary file in its folder to replace it whole "
                + "(Permission denied)")
        #expect(try Self.read(output) == "old")
    }

    @Test("a replaced file keeps its mode")
    func keepsMode() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let output = folder + "/shared.csv"
        try Self.write("old", output)
        chmod(output, 0o640)
        let result = runCommand(["convert", "--quiet", Self.bike, output])
        #expect(result.exitCode == 0)
        #expect(Self.mode(output) & 0o7777 == 0o640)
        #expect(try Self.read(output).hasPrefix("# TraceSim canonical CSV"))
    }

    @Test("`--junit /dev/stdout` appends to standard output, even when that is a regular file")
    func junitToStandardOutput() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let expect = folder + "/expect.json"
        try Self.write(Self.expectations, expect)
        let captured = folder + "/stdout.txt"
        try Self.write("", captured)
        let handle = try #require(FileHandle(forWritingAtPath: captured))
        let result = try Self.run(["check", Self.bike, "--expect", expect, "--junit", "/dev/stdout"], output: handle)
        try handle.close()
        #expect(result.status == 0)
        #expect(result.error == "")
        let text = try Self.read(captured)
        #expect(text.hasPrefix("1 check, 0 failed\n<?xml"), "\(text)")
        #expect(text.hasSuffix("</testsuites>\n"), "\(text)")
    }

    @Test("`--junit /dev/fd/N` writes to that open descriptor, not to a file the link names")
    func openDescriptor() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let expect = folder + "/expect.json"
        try Self.write(Self.expectations, expect)
        let pipe = Pipe()
        let descriptor = pipe.fileHandleForWriting.fileDescriptor
        let result = runCommand(["check", Self.bike, "--expect", expect, "--junit", "/dev/fd/\(descriptor)"])
        try pipe.fileHandleForWriting.close()
        #expect(result.exitCode == 0)
        let xml = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(xml.hasPrefix("<?xml"))
        #expect(xml.hasSuffix("</testsuites>\n"))
    }

    @Test("a file output that cannot be finished (file size limit) exits 74 and leaves nothing behind")
    func fileTooLarge() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let binary = BuiltTracesim.path
        let output = folder + "/out.csv"
        try Self.write("kept", folder + "/existing.csv")
        for target in [output, folder + "/existing.csv"] {
            let result = try Self.run(
                ["-c", "ulimit -f 1 && exec \"$0\" convert --quiet \"$1\" \"$2\"", binary, Self.bike, target],
                output: Pipe(), executable: "/bin/sh")
            #expect(result.status == 74)
            #expect(Self.firstLine(result.error) == "output error: \(target): File too large")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try Self.read(folder + "/existing.csv") == "kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["existing.csv"])
    }

    @Test("a full device as a file output exits 74", .enabled(if: isRoot))
    func fileOutputFull() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let full = try Self.device("full.csv", minor: 7, in: folder)
        let result = runCommand(["convert", "--quiet", Self.bike, full])
        #expect(result.exitCode == 74)
        #expect(Self.firstLine(result.error) == "output error: \(full): No space left on device")
        #expect(Self.mode(full) & S_IFMT == S_IFCHR)
    }

    @Test("writing to a directory names the path (73)")
    func directory() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let result = runCommand(["convert", Self.bike, folder + "/"])
        #expect(result.exitCode == 64)  // no extension: the format cannot be told
        try FileManager.default.createDirectory(atPath: folder + "/out.csv", withIntermediateDirectories: false)
        let converted = runCommand(["convert", Self.bike, folder + "/out.csv"])
        #expect(converted.exitCode == 73)
        #expect(
            Self.firstLine(converted.error) == "error: \(folder)/out.csv: cannot write: it is a directory; give a file name")
        let expect = folder + "/expect.json"
        try Self.write(Self.expectations, expect)
        let checked = runCommand(["check", Self.bike, "--expect", expect, "--junit", folder])
        #expect(checked.exitCode == 73)
        #expect(Self.firstLine(checked.error) == "error: \(folder): cannot write: it is a directory; give a file name")
    }

    // MARK: - outputs that name inputs or each other

    @Test("`convert x.gpx x.gpx` and `convert col.csv col.csv` are refused (64); the input is untouched")
    func convertOntoInput() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        for name in ["x.gpx", "col.csv"] {
            let path = folder + "/" + name
            #expect(runCommand(["convert", "--quiet", Self.bike, path]).exitCode == 0)
            let before = try Self.read(path)
            try FileManager.default.linkItem(atPath: path, toPath: folder + "/hard-" + name)
            for spelling in [path, folder + "/./" + name, folder + "/hard-" + name] {
                let result = runCommand(["convert", path, spelling])
                #expect(result.exitCode == 64)
                #expect(
                    Self.firstLine(result.error)
                        == "error: the output '\(spelling)' is the same file as the input '\(path)': "
                        + "TraceSim never overwrites its input")
            }
            #expect(try Self.read(path) == before)
        }
    }

    @Test("`check --junit <trace>` and `--markdown <expectations>` are refused (64)")
    func checkOntoInput() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let trace = folder + "/trace.csv"
        #expect(runCommand(["convert", "--quiet", Self.bike, trace]).exitCode == 0)
        let expect = folder + "/expect.json"
        try Self.write(Self.expectations, expect)
        try FileManager.default.createSymbolicLink(atPath: folder + "/alias.xml", withDestinationPath: "trace.csv")
        let junit = runCommand(["check", trace, "--expect", expect, "--junit", folder + "/alias.xml"])
        #expect(junit.exitCode == 64)
        #expect(
            Self.firstLine(junit.error)
                == "error: --junit '\(folder)/alias.xml' is the same file as the trace '\(trace)': "
                + "TraceSim never overwrites its input")
        let markdown = runCommand(["check", trace, "--expect", expect, "--markdown", expect])
        #expect(markdown.exitCode == 64)
        #expect(
            Self.firstLine(markdown.error)
                == "error: --markdown '\(expect)' is the same file as --expect '\(expect)': "
                + "TraceSim never overwrites its input")
        #expect(try Self.read(expect) == Self.expectations)
    }

    @Test("`--junit X --markdown X` is refused (64), also for a file not yet made and spelled two ways")
    func twoReportsOneFile() throws {
        let folder = try Self.makeFolder()
        defer { Self.cleanUp(folder) }
        let expect = folder + "/expect.json"
        try Self.write(Self.expectations, expect)
        let report = folder + "/report"
        let result = runCommand(["check", Self.bike, "--expect", expect, "--junit", report, "--markdown", folder + "/./report"])
        #expect(result.exitCode == 64)
        #expect(
            Self.firstLine(result.error)
                == "error: --junit '\(report)' and --markdown '\(folder)/./report' name the same file: "
                + "each output needs its own path")
        #expect(!FileManager.default.fileExists(atPath: report))
        // Devices are written in sequence, not replaced: two reports on standard output lose nothing.
        let both = runCommand(["check", Self.bike, "--expect", expect, "--junit", "/dev/stdout", "--markdown", "/dev/stdout"])
        #expect(both.exitCode == 0)
        #expect(both.output.contains("</testsuites>\n### tracesim check"))
    }
}
