/// One of N deterministic slices of a matrix's traces (`matrix --shard K/N`): run the shards
/// anywhere, then `Matrix.merge` their parts into exactly what one unsharded run gives.
///
/// A shard holds whole traces (input files), so it opens only its own: input i, counted from 0
/// in the order given, belongs to shard `i mod N + 1`. Striping rather than cutting the list in
/// N blocks spreads a fleet listed by driver or by day over every shard.
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

    /// Whether input `input` (0-based, in the order given) is one of this shard's.
    public func holds(_ input: Int) -> Bool { input % count == index - 1 }
}
