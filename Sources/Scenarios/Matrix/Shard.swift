/// One of N deterministic slices of a matrix's runs (`matrix --shard K/N`): run the shards
/// anywhere, then `Matrix.merge` their parts into exactly what one unsharded run gives.
public struct Shard: Sendable, Equatable {
    /// 1-based.
    public let index: Int
    /// How many shards the matrix is split into.
    public let count: Int

    /// The most shards a run may be split into: a part with more is refused when merged, so
    /// every part a matrix writes is one merge reads.
    public static let maximumCount = 1_000_000

    /// Shard `index` of `count`; `nil` unless 1 ≤ index ≤ count ≤ `maximumCount`.
    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maximumCount, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }
}
