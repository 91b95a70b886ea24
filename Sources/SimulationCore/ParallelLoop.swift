import Dispatch
import Synchronization

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
        DispatchQueue.concurrentPerform(iterations: min(width, iterations)) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                if index >= iterations { return }
                body(index)
            }
        }
    }
}
