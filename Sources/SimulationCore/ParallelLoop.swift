import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs independent iterations on a chosen number of threads. Workers take the next index
/// from a shared counter, so uneven iterations still keep every worker busy.
public enum ParallelLoop {
    /// Calls `body` once for every index in `0..<iterations`, on at most `width` threads at a
    /// time (`nil`: as many as Dispatch uses, one per core). A width of 1 runs them in order on
    /// the calling thread.
    public static func run(iterations: Int, width: Int? = nil, _ body: @Sendable (Int) -> Void) {
        guard iterations > 0 else { return }
        guard let width else {
            DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
            return
        }
        if width <= 1 {
            for index in 0..<iterations { body(index) }
            return
        }
        let next = Atomic<Int>(0)
        // Dispatch waits for every worker before returning, which orders their writes before
        // the caller's reads; the counter hands each index to exactly one worker.
        DispatchQueue.concurrentPerform(iterations: min(width, iterations)) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                if index >= iterations { return }
                body(index)
            }
        }
    }

    /// `body(index)` for every index in `0..<iterations`, computed on at most `width` threads
    /// and returned in index order. Each result goes to its own slot, so no lock is taken: a
    /// futex-based `Mutex` would be invisible to ThreadSanitizer, which then reports races.
    public static func map<Result: Sendable>(
        iterations: Int, width: Int? = nil, _ body: @Sendable (Int) -> Result
    ) -> [Result] {
        let slots = UnsafeMutableBufferPointer<Result?>.allocate(capacity: max(iterations, 0))
        slots.initialize(repeating: nil)
        defer {
            slots.deinitialize()
            slots.deallocate()
        }
        let shared = SendableSlots(base: slots)
        run(iterations: iterations, width: width) { index in shared.base[index] = body(index) }
        return slots.map { slot in
            guard let result = slot else { preconditionFailure("ParallelLoop ran every index") }
            return result
        }
    }
}

/// The result slots, shared with the workers; each worker writes only the slots of the
/// indices it was handed.
private struct SendableSlots<Result>: @unchecked Sendable {
    let base: UnsafeMutableBufferPointer<Result?>
}

extension ParallelLoop {
    /// The cores this process may run on: the width of a loop given no `width`.
    public static var coreCount: Int {
        #if canImport(Glibc)
            return max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
        #elseif canImport(Darwin)
            return max(Int(sysconf(_SC_NPROCESSORS_ONLN)), 1)
        #else
            return 1
        #endif
    }
}
