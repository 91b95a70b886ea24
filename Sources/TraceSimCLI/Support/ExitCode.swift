/// The process exit codes, a contract for scripts and CI (BSD `sysexits.h` numbering).
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// A check failed: a threshold of `check` was violated.
    case failure = 1
    /// The command line is wrong (`EX_USAGE`).
    case usage = 64
    /// An input file's content is invalid (`EX_DATAERR`).
    case dataError = 65
    /// An input file is missing or unreadable (`EX_NOINPUT`).
    case noInput = 66
    /// A run failed: the engine under test crashed, hung or broke the protocol (`EX_SOFTWARE`,
    /// the software under test being the engine). The same in `replay`, `matrix`, `check` and
    /// `tune`, so CI tells a broken engine from a violated threshold (1).
    case engineFailed = 70
    /// An output file cannot be written (`EX_CANTCREAT`).
    case cannotCreate = 73
    /// Writing output failed part-way: a full disk, a closed pipe (`EX_IOERR`).
    case ioError = 74
}
