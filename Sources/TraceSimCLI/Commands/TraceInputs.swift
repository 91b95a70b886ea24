import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The trace inputs of a command that reads a fleet (`matrix`): the `<trace>` arguments, then
/// the paths listed in `--traces-from` files, each directory among them replaced by the traces
/// found in it. The list is what the command opens and what a run's identity names, in order.
///
/// Paths stay as the user gave them, joined with `/` below a directory, so errors, reports and
/// the identity quote them back unchanged. A path named twice is read twice.
enum TraceInputs {
    /// `--traces-from`, for the commands that read many traces.
    static let declared: [CommandDeclaration.Option] = [
        .init(
            name: "traces-from", value: "<file>",
            help: """
                Also read the traces FILE lists, one path per line, after the
                <trace> arguments; '-' reads the list from standard input (no
                trace can then be '-'). Paths are relative to the current
                directory, not to FILE, and kept whole, spaces included; blank
                lines and lines starting with '#' are skipped, CRLF line ends
                accepted. A listed directory is read as a <trace> argument is.
                May be given more than once.
                """, isRepeatable: true)
    ]

    /// What the `<trace>` argument's help says about directories.
    static let directoryHelpLines = """
        A directory is read recursively: its regular files and links to
        files, in byte order of their paths, each kept only when its content
        is a trace (gzip too); the others are noted and skipped. Hidden
        files and directories (.name) and links to directories are left out.
        """

    /// The inputs in order: `positionals`, then each `--traces-from` list's paths, every
    /// directory replaced by the traces in it (see `traces(inDirectory:console:)`).
    ///
    /// A path that is not a directory is kept unchecked, even when it does not exist: the
    /// importer reports it as it reports any trace argument.
    ///
    /// - Throws: `UsageError` when standard input would be read twice (`--traces-from -` with
    ///   a `-` trace, listed or not); `CommandFailure` when a list is missing or unreadable or
    ///   a directory cannot be read (66), or a list is not text (65).
    static func expand(_ positionals: [String], _ parsed: ParsedArguments, command: String, console: Console) throws
        -> [String]
    {
        try expand(
            positionals, lists: parsed.values("traces-from"), command: command, console: console,
            standardInput: readStandardInput)
    }

    /// `expand`, with standard input read by `standardInput`: tests pass the bytes a pipe
    /// would carry.
    static func expand(
        _ positionals: [String], lists: [String], command: String, console: Console,
        standardInput: () throws(TraceFileError) -> [UInt8]
    ) throws -> [String] {
        let stdin = TraceFile.standardInputPath
        let listsFromStandardInput = lists.filter { $0 == stdin }.count
        if listsFromStandardInput > 1 {
            throw UsageError(
                "--traces-from - reads standard input, which can be read only once, but is given "
                    + "\(listsFromStandardInput) times", command: command)
        }
        let listIsStandardInput = UsageError(
            "standard input ('-') can be read only once: --traces-from - reads the list from it, so no trace "
                + "can be '-'", command: command)
        // Checked before reading, and again for the paths the lists name.
        if listsFromStandardInput == 1 && positionals.contains(stdin) { throw listIsStandardInput }
        var named = positionals
        for list in lists {
            named += try paths(inListAt: list, standardInput: standardInput)
        }
        if listsFromStandardInput == 1 && named.contains(stdin) { throw listIsStandardInput }
        try StandardInputArguments.checkReadOnce(named, command: command)
        var inputs: [String] = []
        for path in named {
            if path != stdin && isDirectory(path) {
                inputs += try traces(inDirectory: path, console: console)
            } else {
                inputs.append(path)
            }
        }
        return inputs
    }

    // MARK: Lists

    /// The paths the list at `path` names (`-`: standard input).
    private static func paths(
        inListAt path: String, standardInput: () throws(TraceFileError) -> [UInt8]
    ) throws(CommandFailure) -> [String] {
        let name = MessageText.path(path)
        let bytes: [UInt8]
        do throws(TraceFileError) {
            if path == TraceFile.standardInputPath {
                bytes = try standardInput()
            } else {
                // Said here: the reader's own words would call it "not a trace file".
                guard !isDirectory(path) else {
                    throw TraceFileError(
                        file: path,
                        reason: "is a directory, not a list of paths (name it as a trace to read every trace in it)")
                }
                bytes = try ConfigFiles.contents(ofPath: path)
            }
        } catch var error {
            error.file = MessageText.path(error.file)
            throw CommandFailure(.noInput, "error: \(error)")
        }
        return try paths(inList: bytes, name: name)
    }

    /// The paths of a list's bytes, one a line. Blank lines (spaces and tabs at most) and lines
    /// starting with `#` are skipped; a line's trailing `\r` and the file's UTF-8 byte-order
    /// mark are dropped, as editors on Windows write them; everything else is the path,
    /// leading and trailing spaces included (a file name may hold them).
    /// - Parameter name: the list as errors name it.
    /// - Throws: `CommandFailure` (65) at the first line holding a NUL byte or bytes that are
    ///   not UTF-8, naming the list and the line.
    static func paths(inList bytes: [UInt8], name: String) throws(CommandFailure) -> [String] {
        var paths: [String] = []
        var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var number = 0
        while lineStart < bytes.count {
            number += 1
            let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var line = bytes[lineStart..<newline]
            lineStart = newline + 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.contains(0) {
                throw CommandFailure(
                    .dataError, "error: \(name):\(number): NUL byte in a list of paths (is this a binary file?)")
            }
            guard let path = String(validating: line, as: UTF8.self) else {
                throw CommandFailure(.dataError, "error: \(name):\(number): not UTF-8 text")
            }
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            if line.first == UInt8(ascii: "#") { continue }
            paths.append(path)
        }
        return paths
    }

    /// Standard input, whole, up to the size a configuration file may have.
    private static func readStandardInput() throws(TraceFileError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if got == 0 { return bytes }
            if got < 0 {
                if errno == EINTR { continue }
                throw TraceFileError(file: TraceFile.standardInputName, reason: describeErrno())
            }
            guard got <= TraceFile.maximumConfigurationBytes - bytes.count else {
                throw TraceFileError(
                    file: TraceFile.standardInputName,
                    reason:
                        "larger than \(TraceFile.maximumConfigurationBytes >> 20) MiB, the limit for a list of paths")
            }
            bytes += chunk[0..<got]
        }
    }

    // MARK: Directories

    /// Whether `path` is a directory or a link to one.
    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// What a walk found at one path.
    private enum Found {
        /// A regular file, or a link to one: a trace if its content says so.
        case file
        /// Left out, for this reason (`note: PATH: reason`).
        case skipped(String)
    }

    /// The traces in `directory` and below, in byte order of their paths.
    ///
    /// Regular files and links to regular files are candidates, and each is kept when its
    /// content shows a trace format (`TraceImporter.detectFormat(atPath:)`, gzip inflated);
    /// the others are noted on `console` and left out. A candidate that cannot be opened is
    /// kept, so that importing it reports why rather than a note hiding it. Entries whose
    /// names start with `.` are left out unnoted (`.git`, `.DS_Store`, editors' swap files).
    /// Links to directories are noted and not followed, so the walk cannot loop; other
    /// entries that are not files (FIFOs, sockets, devices), broken links and names that are
    /// not UTF-8 are noted and left out.
    ///
    /// - Throws: `CommandFailure` (66) when a directory cannot be listed.
    static func traces(inDirectory directory: String, console: Console) throws(CommandFailure) -> [String] {
        var found: [(path: String, what: Found)] = []
        try walk(directory, into: &found)
        found.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        var traces: [String] = []
        for (path, what) in found {
            switch what {
            case .skipped(let reason):
                console.warn("note: \(MessageText.path(path)): \(reason); skipped")
            case .file:
                let format: TraceFormat?
                do { format = try TraceImporter.detectFormat(atPath: path) } catch {
                    traces.append(path)
                    continue
                }
                if format == nil {
                    console.warn("note: \(MessageText.path(path)): not a trace any importer recognises; skipped")
                } else {
                    traces.append(path)
                }
            }
        }
        return traces
    }

    private static func walk(_ directory: String, into found: inout [(path: String, what: Found)])
        throws(CommandFailure)
    {
        guard let stream = opendir(directory) else {
            throw CommandFailure(
                .noInput, "error: \(MessageText.path(directory)): cannot read the directory: \(describeErrno())")
        }
        var subdirectories: [String] = []
        do {
            defer { closedir(stream) }
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            while true {
                errno = 0
                guard let entry = readdir(stream) else {
                    guard errno == 0 else {
                        throw CommandFailure(
                            .noInput,
                            "error: \(MessageText.path(directory)): cannot read the directory: \(describeErrno())")
                    }
                    break
                }
                let nameBytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    Array(raw.prefix { $0 != 0 })
                }
                // Hidden entries, and `.` and `..` with them.
                if nameBytes.first == UInt8(ascii: ".") { continue }
                guard let name = String(validating: nameBytes, as: UTF8.self) else {
                    found.append(
                        (prefix + String(decoding: nameBytes, as: UTF8.self), .skipped("the name is not UTF-8")))
                    continue
                }
                let path = prefix + name
                var status = stat()
                guard lstat(path, &status) == 0 else {
                    // Removed since it was listed: nothing to read, nothing to say.
                    if errno == ENOENT { continue }
                    found.append((path, .file))
                    continue
                }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: subdirectories.append(path)
                case S_IFREG: found.append((path, .file))
                case S_IFLNK: found.append((path, linked(path)))
                default: found.append((path, .skipped("not a regular file (\(kind(status)))")))
                }
            }
        }
        for subdirectory in subdirectories {
            try walk(subdirectory, into: &found)
        }
    }

    /// A link found in a walk: a candidate when it leads to a regular file.
    private static func linked(_ path: String) -> Found {
        var status = stat()
        guard stat(path, &status) == 0 else {
            // A link into a loop of links is as broken as one to nothing.
            return errno == ENOENT || errno == ELOOP ? .skipped("a broken symbolic link") : .file
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .skipped("a symbolic link to a directory, not followed")
        default: return .skipped("a symbolic link to \(kind(status)), not a regular file")
        }
    }

    /// `errno` as trace files' errors word it.
    private static func describeErrno() -> String {
        switch errno {
        case ENOENT: "no such file or directory"
        case EACCES: "permission denied"
        default: DescriptorWriting.describe(errno)
        }
    }

    private static func kind(_ status: stat) -> String {
        switch status.st_mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
    }
}
