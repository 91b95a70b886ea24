import Foundation

/// Runs `body` on a thread of its own and awaits it without holding one of Swift concurrency's
/// threads. A whole matrix, or a wait on another process, takes seconds; on the cooperative
/// pool (one thread per core) that would starve the suites whose app code runs as Swift tasks
/// (the Core Location facade's live updates).
package func offPool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        // A main thread's stack, as the command line has when it runs as a process.
        thread.stackSize = 8 << 20
        thread.start()
    }
}
