/// Point-in-geofence for many fences: a uniform grid over the fences' bounding boxes picks
/// candidates, circles are decided by distance, and polygons by an even-odd crossing test
/// that defers to GEOS whenever the point is within floating-point reach of an edge, so
/// every answer equals GEOS's prepared `contains` (property-tested).
///
/// Memory is bounded: the grid holds at most `maximumCellEntries` entries and
/// `maximumCellEdges` edges, coarsening its cells (or deferring to the full test) beyond.
/// Fences across the antimeridian sit east of 180° in the grid's plane; circles that reach a
/// pole cover every longitude.
///
/// Not `Sendable`: it holds GEOS objects of one context.
public final class GeofenceIndex {
    /// The fences, in the order given.
    public let fences: [Geofence]
    private let polygons: [PreparedPolygon?]
    private let circleCenters: [Coordinate]
    private let circleRadii: [Double]
    private let boxes: [(minX: Double, minY: Double, maxX: Double, maxY: Double)]
    // Polygon vertices flattened for the crossing test: fence → range of `ringStarts`
    // (one entry per ring plus an end), ring → range of `xs`/`ys`. Flat arrays keep the hot
    // loop free of class accesses and reference counting.
    private let fenceRings: [Int32]
    private let ringStarts: [Int32]
    private let xs: [Double]
    private let ys: [Double]
    // The grid, stored as compressed rows: cell → range of `cellFences`.
    private let originX: Double
    private let originY: Double
    private let cellSize: Double
    private let columns: Int
    private let rows: Int
    private let cellStarts: [Int32]
    private let cellEntries: [CellEntry]
    private let cellEdges: [Double]
    /// How many answers GEOS gave (points too close to an edge for the fast test).
    public private(set) var geosFallbacks = 0
    /// How many cell lookups fell back to the whole-polygon test (the point too close to a
    /// cell edge's line, or to the segment towards the cell's centre).
    public private(set) var cellFallbacks = 0
    /// How many cell lookups the cell's own edges decided.
    public private(set) var cellDecisions = 0
    /// How many fence-in-cell entries the grid holds (at most `maximumCellEntries`, or four
    /// per fence when there are more fences than that).
    public var cellEntryCount: Int { cellEntries.count }

    /// The most entries (a fence listed in a cell, 16 bytes each) the grid holds: 2²¹, about
    /// 32 MB, or four per fence when there are more fences than that. Where the finest grid
    /// would exceed it (thousands of overlapping fences), cells are made coarser until it fits:
    /// queries then see more candidates, with the same answers.
    public static let maximumCellEntries = 1 << 21
    /// The most polygon edges cells keep for the fast crossing test (32 bytes each): 2²⁰,
    /// 32 MB. Past it, a cell crossed by edges defers to the whole-polygon test.
    public static let maximumCellEdges = 1 << 20

    private typealias Box = (minX: Double, minY: Double, maxX: Double, maxY: Double)

    /// Whether any box reaches past 180° (a fence across the antimeridian): a point is then
    /// also looked up 360° east of itself.
    private let wraps: Bool

    /// Indexes fences; polygons are validated and prepared with `context`.
    /// - Throws: `GeometryError` naming the first invalid fence.
    /// - Complexity: O(fences + cell entries), with entries bounded by `maximumCellEntries`.
    public init(_ fences: [Geofence], context: GEOSContext) throws(GeometryError) {
        self.fences = fences
        var polygons: [PreparedPolygon?] = []
        var centers: [Coordinate] = []
        var radii: [Double] = []
        var boxes: [Box] = []
        for fence in fences {
            switch fence.shape {
            case .circle(let center, let radius):
                polygons.append(nil)
                centers.append(center)
                radii.append(radius)
                boxes.append(Self.box(center, radiusMeters: radius))
            case .polygon(let shape):
                let prepared = try PreparedPolygon(shape, name: fence.identifier, context: context)
                polygons.append(prepared)
                centers.append(Coordinate(latitude: 0, longitude: 0))
                radii.append(0)
                boxes.append(
                    (
                        prepared.bounds.minLongitude, prepared.bounds.minLatitude,
                        prepared.bounds.maxLongitude, prepared.bounds.maxLatitude
                    ))
            }
        }
        self.polygons = polygons
        var fenceRings: [Int32] = []
        var ringStarts: [Int32] = []
        var xs: [Double] = []
        var ys: [Double] = []
        for polygon in polygons {
            fenceRings.append(Int32(ringStarts.count))
            // The unwrapped rings, in the same plane as the boxes.
            guard let polygon else { continue }
            for ring in polygon.planarRings {
                ringStarts.append(Int32(xs.count))
                xs += ring.map(\.longitude)
                ys += ring.map(\.latitude)
            }
        }
        fenceRings.append(Int32(ringStarts.count))
        ringStarts.append(Int32(xs.count))
        self.fenceRings = fenceRings
        self.ringStarts = ringStarts
        self.xs = xs
        self.ys = ys
        circleCenters = centers
        circleRadii = radii
        self.boxes = boxes

        let minX = boxes.map(\.minX).min() ?? 0
        let minY = boxes.map(\.minY).min() ?? 0
        let maxX = boxes.map(\.maxX).max() ?? 0
        let maxY = boxes.map(\.maxY).max() ?? 0
        wraps = maxX > 180
        // About sixteen cells per fence, at most 2048 a side: small cells keep candidates near
        // one. Dense, overlapping fences would each cover thousands of such cells: halve the
        // side until the entries fit the budget.
        let span = max(maxX - minX, maxY - minY, 1e-9)
        var side = min(2048, max(1, Int(Double(fences.count).squareRoot() * 8)))
        let budget = max(Self.maximumCellEntries, 4 * fences.count)
        while side > 1
            && Self.entryCount(boxes, minX: minX, minY: minY, span: span, cellSize: span / Double(side)) > budget
        {
            side = (side + 1) / 2
        }
        cellSize = span / Double(side)
        originX = minX
        originY = minY
        columns = Int(((maxX - minX) / cellSize).rounded(.down)) + 1
        rows = Int(((maxY - minY) / cellSize).rounded(.down)) + 1
        // Each cell lists the fences that may contain its points, classified once here so
        // most queries need no crossing test: a polygon cell with no edge near it is wholly
        // inside (listed) or wholly outside (not listed); a cell crossed by edges keeps those
        // edges and whether its centre is inside.
        var pending: [(cell: Int32, entry: CellEntry)] = []
        var cellEdges: [Double] = []
        for (index, box) in boxes.enumerated() {
            let cells = Self.cells(box, minX: minX, minY: minY, cellSize: cellSize, columns: columns, rows: rows)
            for row in cells.rows {
                for column in cells.columns {
                    let entry = Self.classify(
                        fence: index, row: row, column: column, originX: minX, originY: minY, cellSize: cellSize,
                        rings: fenceRings, ringStarts: ringStarts, xs: xs, ys: ys, edges: &cellEdges)
                    if let entry { pending.append((Int32(row * columns + column), entry)) }
                }
            }
        }
        // A counting sort by cell, stable so each cell lists its fences in fence order.
        var starts = [Int32](repeating: 0, count: columns * rows + 1)
        for item in pending { starts[Int(item.cell) + 1] += 1 }
        for cell in 0..<(columns * rows) { starts[cell + 1] += starts[cell] }
        var next = starts
        var flat = [CellEntry](
            repeating: CellEntry(fence: 0, kind: .fullTest, centreInside: false, edgeStart: 0, edgeCount: 0),
            count: pending.count)
        for item in pending {
            flat[Int(next[Int(item.cell)])] = item.entry
            next[Int(item.cell)] += 1
        }
        cellStarts = starts
        cellEntries = flat
        self.cellEdges = cellEdges
    }

    /// A circle's box in degrees, with a margin: every longitude when it reaches a pole;
    /// otherwise its west edge in -180..<180 and its east edge possibly past 180.
    private static func box(_ center: Coordinate, radiusMeters: Double) -> Box {
        let degrees = 180 / Double.pi
        let angular = radiusMeters / Geodesy.earthRadiusMeters
        let latitudeSpan = angular * degrees * 1.01 + 1e-9
        let south = center.latitude - latitudeSpan
        let north = center.latitude + latitudeSpan
        // Latitudes are not clamped to ±90: a box is only a filter, and a point a rounding
        // error past a pole must still reach the distance test.
        // Likewise a little past ±180 for a circle around a pole.
        let everyLongitude: Box = (-180 - 1e-6, south, 180 + 1e-6, north)
        guard south > -90, north < 90 else { return everyLongitude }
        // The widest longitude a spherical circle reaches from its centre's meridian.
        let ratio = sin(angular) / cos(center.latitude / degrees)
        guard ratio < 1 else { return everyLongitude }
        let longitudeSpan = asin(ratio) * degrees * 1.01 + 1e-9
        guard longitudeSpan < 180 else { return everyLongitude }
        let west = center.longitude - longitudeSpan
        let turn = west < -180 ? 360.0 : 0
        return (west + turn, south, center.longitude + longitudeSpan + turn, north)
    }

    /// The columns and rows a box covers.
    private static func cells(
        _ box: Box, minX: Double, minY: Double, cellSize: Double, columns: Int, rows: Int
    ) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        let firstColumn = Int((box.minX - minX) / cellSize)
        let lastColumn = min(columns - 1, Int((box.maxX - minX) / cellSize))
        let firstRow = Int((box.minY - minY) / cellSize)
        let lastRow = min(rows - 1, Int((box.maxY - minY) / cellSize))
        return (firstColumn...max(firstColumn, lastColumn), firstRow...max(firstRow, lastRow))
    }

    /// How many entries a grid of `cellSize` would hold at most (an upper bound: a polygon's
    /// cells wholly outside it hold none), stopping early once past `Int32.max`.
    private static func entryCount(_ boxes: [Box], minX: Double, minY: Double, span: Double, cellSize: Double) -> Int {
        let columns = Int(((span) / cellSize).rounded(.down)) + 1
        var total = 0
        for box in boxes {
            let cells = Self.cells(box, minX: minX, minY: minY, cellSize: cellSize, columns: columns, rows: columns)
            total += cells.columns.count * cells.rows.count
            if total > Int(Int32.max) { return total }
        }
        return total
    }

    /// What a cell knows about one fence.
    private struct CellEntry {
        enum Kind: UInt8 {
            /// Run the full test (circles, or a centre too close to an edge to classify).
            case fullTest
            /// Every point of the cell is inside the polygon.
            case inside
            /// Edges cross the cell: count crossings from the point to the cell's centre.
            case crossed
        }

        var fence: Int32
        var kind: Kind
        var centreInside: Bool
        /// The cell's edges in `cellEdges`, four numbers each (ax, ay, bx, by).
        var edgeStart: Int32
        var edgeCount: Int32
    }

    private static func classify(
        fence: Int, row: Int, column: Int, originX: Double, originY: Double, cellSize: Double, rings: [Int32],
        ringStarts: [Int32], xs: [Double], ys: [Double], edges: inout [Double]
    ) -> CellEntry? {
        let firstRing = Int(rings[fence])
        let endRing = Int(rings[fence + 1])
        guard endRing > firstRing else {
            return CellEntry(fence: Int32(fence), kind: .fullTest, centreInside: false, edgeStart: 0, edgeCount: 0)
        }
        // The cell, widened far beyond any rounding in locating a point's cell.
        let margin = cellSize * 1e-6
        let (x0, x1) = (originX + Double(column) * cellSize - margin, originX + Double(column + 1) * cellSize + margin)
        let (y0, y1) = (originY + Double(row) * cellSize - margin, originY + Double(row + 1) * cellSize + margin)
        let start = edges.count
        for ring in firstRing..<endRing {
            let first = Int(ringStarts[ring])
            let end = Int(ringStarts[ring + 1])
            guard end > first else { continue }
            var (ax, ay) = (xs[end - 1], ys[end - 1])
            for vertex in first..<end {
                let (bx, by) = (xs[vertex], ys[vertex])
                defer { (ax, ay) = (bx, by) }
                // A superset of the edges touching the cell is enough: extra edges only cost time.
                if max(ax, bx) >= x0 && min(ax, bx) <= x1 && max(ay, by) >= y0 && min(ay, by) <= y1 {
                    edges += [ax, ay, bx, by]
                }
            }
        }
        let centre = Coordinate(
            latitude: originY + (Double(row) + 0.5) * cellSize, longitude: originX + (Double(column) + 0.5) * cellSize)
        guard let centreInside = evenOdd(centre, rings: firstRing..<endRing, ringStarts: ringStarts, xs: xs, ys: ys)
        else {
            edges.removeSubrange(start...)
            return CellEntry(fence: Int32(fence), kind: .fullTest, centreInside: false, edgeStart: 0, edgeCount: 0)
        }
        let count = (edges.count - start) / 4
        if count > 0 && edges.count / 4 > maximumCellEdges {
            edges.removeSubrange(start...)
            return CellEntry(fence: Int32(fence), kind: .fullTest, centreInside: false, edgeStart: 0, edgeCount: 0)
        }
        if count == 0 {
            return centreInside
                ? CellEntry(fence: Int32(fence), kind: .inside, centreInside: true, edgeStart: 0, edgeCount: 0) : nil
        }
        return CellEntry(
            fence: Int32(fence), kind: .crossed, centreInside: centreInside, edgeStart: Int32(start / 4),
            edgeCount: Int32(count))
    }

    /// The indices of the fences that contain `point`, in fence order.
    /// - Complexity: O(candidates in the point's cell).
    public func fencesContaining(_ point: Coordinate) throws(GeometryError) -> [Int] {
        var result: [Int] = []
        try forEachFence(containing: point) { result.append($0) }
        return result
    }

    /// Calls `body` with each fence containing `point`, in fence order, without allocating:
    /// the form for hot loops.
    public func forEachFence(containing point: Coordinate, _ body: (Int) -> Void) throws(GeometryError) {
        guard wraps else {
            try forEachFence(containing: point, inCellAt: point.longitude, body)
            return
        }
        // A fence across the antimeridian lies east of 180 in the grid: look there too, and
        // report each fence once, in fence order.
        var found: [Int] = []
        try forEachFence(containing: point, inCellAt: point.longitude) { found.append($0) }
        try forEachFence(containing: point, inCellAt: point.longitude + 360) { found.append($0) }
        found.sort()
        var last = -1
        for index in found where index != last {
            body(index)
            last = index
        }
    }

    /// The fences containing `point` among those listed in the cell at longitude `x` (the
    /// point's own, or 360° east of it).
    private func forEachFence(containing point: Coordinate, inCellAt x: Double, _ body: (Int) -> Void)
        throws(GeometryError)
    {
        let column = Int(((x - originX) / cellSize).rounded(.down))
        let row = Int(((point.latitude - originY) / cellSize).rounded(.down))
        guard column >= 0, row >= 0, column < columns, row < rows else { return }
        let cell = row * columns + column
        for slot in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
            let entry = cellEntries[slot]
            let index = Int(entry.fence)
            switch entry.kind {
            case .inside:
                body(index)
            case .crossed:
                let centre = Coordinate(
                    latitude: originY + (Double(row) + 0.5) * cellSize,
                    longitude: originX + (Double(column) + 0.5) * cellSize)
                if let inside = crossingParity(Coordinate(latitude: point.latitude, longitude: x), centre, entry) {
                    cellDecisions += 1
                    if inside { body(index) }
                } else {
                    cellFallbacks += 1
                    if try contains(index, point) { body(index) }
                }
            case .fullTest:
                if try contains(index, point) { body(index) }
            }
        }
    }

    /// The point's side from the centre's: toggled once per edge the segment between them
    /// crosses. `nil` when any orientation is too close to zero to trust its sign.
    private func crossingParity(_ point: Coordinate, _ centre: Coordinate, _ entry: CellEntry) -> Bool? {
        let (px, py, cx, cy) = (point.longitude, point.latitude, centre.longitude, centre.latitude)
        let segment = abs(cx - px) + abs(cy - py)
        var inside = entry.centreInside
        return cellEdges.withUnsafeBufferPointer { edges in
            for edge in Int(entry.edgeStart)..<Int(entry.edgeStart + entry.edgeCount) {
                let (ax, ay, bx, by) = (edges[4 * edge], edges[4 * edge + 1], edges[4 * edge + 2], edges[4 * edge + 3])
                let length = abs(bx - ax) + abs(by - ay)
                let reach = length + segment + abs(px - ax) + abs(py - ay)
                let tolerance = 1e-12 * reach * reach
                let sideOfPoint = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
                let sideOfCentre = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
                let sideOfA = (cx - px) * (ay - py) - (cy - py) * (ax - px)
                let sideOfB = (cx - px) * (by - py) - (cy - py) * (bx - px)
                if abs(sideOfPoint) <= tolerance || abs(sideOfCentre) <= tolerance || abs(sideOfA) <= tolerance
                    || abs(sideOfB) <= tolerance
                {
                    return nil
                }
                if (sideOfPoint > 0) != (sideOfCentre > 0) && (sideOfA > 0) != (sideOfB > 0) { inside.toggle() }
            }
            return inside
        }
    }

    /// Whether fence `index` contains `point` (circles: within the radius on the sphere;
    /// polygons: GEOS semantics, boundary excluded, across the antimeridian as
    /// `PreparedPolygon` reads it).
    public func contains(_ index: Int, _ point: Coordinate) throws(GeometryError) -> Bool {
        let box = boxes[index]
        // The box may lie past 180 (a fence across the antimeridian): so may the point.
        var x = point.longitude
        if x < box.minX || x > box.maxX { x += 360 }
        guard x >= box.minX, x <= box.maxX, point.latitude >= box.minY, point.latitude <= box.maxY else {
            return false
        }
        if fenceRings[index] == fenceRings[index + 1] {
            return Geodesy.distanceMeters(circleCenters[index], point) <= circleRadii[index]
        }
        let rings = Int(fenceRings[index])..<Int(fenceRings[index + 1])
        let planar = Coordinate(latitude: point.latitude, longitude: x)
        if let answer = Self.evenOdd(planar, rings: rings, ringStarts: ringStarts, xs: xs, ys: ys) { return answer }
        geosFallbacks += 1
        guard let polygon = polygons[index] else { return false }
        return try polygon.contains(point)
    }

    /// Even-odd crossing test over every ring of fence `fence`, or `nil` when the point is
    /// close enough to an edge or a crossing that floating point could decide it wrongly.
    private static func evenOdd(
        _ point: Coordinate, rings: Range<Int>, ringStarts: [Int32], xs: [Double], ys: [Double]
    ) -> Bool? {
        let x = point.longitude
        let y = point.latitude
        var inside = false
        return xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                for ring in rings {
                    let first = Int(ringStarts[ring])
                    let end = Int(ringStarts[ring + 1])
                    guard end > first else { continue }
                    var (ax, ay) = (xs[end - 1], ys[end - 1])
                    for vertex in first..<end {
                        let (bx, by) = (xs[vertex], ys[vertex])
                        defer { (ax, ay) = (bx, by) }
                        let scale = abs(bx - ax) + abs(by - ay) + abs(x - ax) + abs(y - ay)
                        let straddles = (ay > y) != (by > y)
                        // Far from the edge's box on either axis: only the crossing matters.
                        let withinSegment =
                            x >= min(ax, bx) - 1e-9 && x <= max(ax, bx) + 1e-9
                            && y >= min(ay, by) - 1e-9 && y <= max(ay, by) + 1e-9
                        if withinSegment {
                            let cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
                            if abs(cross) <= 1e-12 * scale * scale { return nil }
                            if !straddles && (abs(ay - y) <= 1e-12 * scale || abs(by - y) <= 1e-12 * scale) {
                                return nil
                            }
                        }
                        if straddles {
                            let crossingX = ax + (bx - ax) * (y - ay) / (by - ay)
                            if abs(crossingX - x) <= 1e-12 * scale { return nil }
                            if x < crossingX { inside.toggle() }
                        }
                    }
                }
                return inside
            }
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
