import Foundation
import Synchronization

/// The process's standard output and standard error behind one writer that records the first
/// failure (a full disk, a closed pipe, a bad descriptor) and then drops all further output,
/// so a command's partial results are never followed by more text that pretends all is well.
/// The command line turns a recorded failure into exit 74 (`ExitCode.ioError`).
final class StandardStreams: Sendable {
    /// One of the two streams.
    enum Stream: Sendable {
        case output, error

        var descriptor: Int32 { self == .output ? 1 : 2 }
        var name: String { self == .output ? "stdout" : "stderr" }
    }

    /// A write that failed: where, and the `errno`.
    struct Failure: Sendable, Equatable {
        var stream: Stream
        var code: Int32

        /// What the CLI prints on standard error, such as
        /// "output error: stdout: No space left on device".
        var message: String { "output error: \(stream.name): \(DescriptorWriting.describe(code))" }
    }

    static let process = StandardStreams()

    // Writes happen under the lock, so lines from concurrent runs never interleave.
    private let state = Mutex<Failure?>(nil)

    /// Writes `text` to `stream`, unless an earlier write failed.
    func write(_ text: String, to stream: Stream) {
        state.withLock { failure in
            guard failure == nil else { return }
            if let code = DescriptorWriting.writeAll(text, to: stream.descriptor) {
                failure = Failure(stream: stream, code: code)
            }
        }
    }

    /// The first write that failed, if any.
    var failure: Failure? { state.withLock { $0 } }

    /// Prints the failure on standard error, unless standard error is what failed.
    func reportFailure() {
        state.withLock { failure in
            guard let failure, failure.stream != .error else { return }
            _ = DescriptorWriting.writeAll(failure.message + "\n", to: Stream.error.descriptor)
        }
    }
}
