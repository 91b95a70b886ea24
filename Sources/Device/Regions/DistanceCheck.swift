import Geometry

/// `DistanceComparison`'s answers, mostly without its cosine.
///
/// The flat rules (`DistanceComparison`, the engine's `LocalDistance`) scale longitude by the
/// cosine of the mean latitude, and that `cos` call was most of what the per-fix region, visit
/// and significant-change checks cost. Here the cosine is a Taylor polynomial, within 2·10⁻¹⁰
/// of it up to 70° of latitude, so the flat distance is known to a part in a billion. A
/// threshold farther than a part in a million from the estimate gets the answer the exact rule
/// would give; the near cases (rare on a drive) ask the exact rule itself. The answers are
/// therefore the exact rule's, bit for bit.
package struct DistanceCheck {
    private let from: Coordinate
    private let to: Coordinate
    /// The estimate, or NaN where the flat rule does not apply (the exact rule decides).
    private let estimate: Double

    /// Relative margin kept around every threshold, far wider than the estimate's error.
    @usableFromInline static let margin = 1e-6

    /// Compares the distance from `from` to `to` with thresholds.
    @inlinable package init(_ from: Coordinate, _ to: Coordinate) {
        self.from = from
        self.to = to
        let flat = Self.approximateFlatMeters(from, to)
        // `DistanceComparison` goes to the great circle at 10 km; well short of it, it does not.
        estimate = flat < 9_000 ? flat : .nan
    }

    /// `DistanceComparison(from, to).isAtMost(meters)`.
    @inlinable package func isAtMost(_ meters: Double) -> Bool {
        // The exact rule: flat below 99 % of the threshold is in, above 101 % out.
        if estimate < meters * 0.99 * (1 - Self.margin) { return true }
        if estimate > meters * 1.01 * (1 + Self.margin) { return false }
        return DistanceComparison(from, to).isAtMost(meters)
    }

    /// `DistanceComparison(from, to).isAtLeast(meters)`.
    @inlinable package func isAtLeast(_ meters: Double) -> Bool {
        if estimate > meters * 1.01 * (1 + Self.margin) { return true }
        if estimate < meters * 0.99 * (1 - Self.margin) { return false }
        return DistanceComparison(from, to).isAtLeast(meters)
    }

    /// Whether the flat distance with the true cosine (the engine's `LocalDistance`) from `a`
    /// to `b` is below `meters`: `true` or `false` when the estimate settles it, `nil` when it
    /// is too close to tell or a latitude is beyond 70°, where the polynomial is not held to
    /// its bound.
    @inlinable package static func isFlatDistance(_ a: Coordinate, _ b: Coordinate, below meters: Double) -> Bool? {
        guard abs(a.latitude) <= 70, abs(b.latitude) <= 70 else { return nil }
        let estimate = flatMeters(a, b)
        if estimate < meters * (1 - margin) { return true }
        if estimate > meters * (1 + margin) { return false }
        return nil
    }

    /// The flat distance under `DistanceComparison`'s own conditions (both latitudes within 70°,
    /// steps below 0.09° and 0.26°), NaN outside them.
    @inlinable static func approximateFlatMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
        guard abs(a.latitude) <= 70, abs(b.latitude) <= 70, abs(b.latitude - a.latitude) < 0.09,
            abs(b.longitude - a.longitude) < 0.26
        else { return .nan }
        return flatMeters(a, b)
    }

    @inlinable static func flatMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
        let radians = Double.pi / 180
        let x = (b.longitude - a.longitude) * radians * cosine((a.latitude + b.latitude) / 2 * radians)
        let y = (b.latitude - a.latitude) * radians
        return Geodesy.earthRadiusMeters * (x * x + y * y).squareRoot()
    }

    /// cos(x) to within 2·10⁻¹⁰ for |x| ≤ 70° (1.222 rad): the Taylor series to x¹², whose
    /// first omitted term, x¹⁴/14!, bounds the error of this alternating series.
    @inlinable static func cosine(_ x: Double) -> Double {
        let s = x * x
        let tail = 1.0 / 40_320 + s * (-1.0 / 3_628_800 + s * (1.0 / 479_001_600))
        return 1 + s * (-0.5 + s * (1.0 / 24 + s * (-1.0 / 720 + s * tail)))
    }
}
