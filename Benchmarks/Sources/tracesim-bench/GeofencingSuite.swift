import BenchmarkKit
import Geometry

/// Point-in-geofence lookups along a drive: TraceSim's `GeofenceIndex`, plain GEOS prepared
/// `contains` behind a bounding-box test (what a direct GEOS integration does), and shapely's
/// STRtree with `contains_xy`, all answering which polygons hold each point.
enum GeofencingSuite {
    static func run(_ bench: Bench) throws {
        bench.progress("geofencing")
        for polygons in bench.options.polygons {
            let workload = FenceWorkload(polygons: polygons, points: bench.options.points, seed: bench.options.seed)
            let context = GEOSContext()
            let (build, index) = try measure(RunPlan(warmups: 0, runs: 1)) {
                try GeofenceIndex(workload.fences, context: context)
            }
            let (timing, answer) = try measure(bench.options.plan) { try indexAnswer(index, workload.points) }
            let rate = Double(workload.points.count) / timing.median
            var peers: [PeerComparison] = []

            // The plain GEOS scan is O(polygons) per point: give it a slice of the same walk.
            let slice = Array(workload.points.prefix(max(2_000, 20_000_000 / polygons)))
            let prepared = try workload.fences.map { fence throws(GeometryError) -> PreparedPolygon in
                guard case .polygon(let shape) = fence.shape else {
                    preconditionFailure("generated fences are polygons")
                }
                return try PreparedPolygon(shape, name: fence.identifier, context: context)
            }
            let (scan, scanAnswer) = try measure(RunPlan(warmups: 0, runs: min(3, bench.options.plan.runs))) {
                try geosScan(prepared, slice)
            }
            let agreesOnSlice = try scanAnswer == indexAnswer(index, slice)
            if !agreesOnSlice { bench.fail("GEOS and the index disagree on \(polygons) polygons") }
            peers.append(
                PeerComparison(
                    peer: "GEOS prepared contains (box scan)", version: "libgeos", timing: scan,
                    work: Double(slice.count), traceSimRate: rate, agrees: agreesOnSlice))

            if bench.peers != nil {
                let geoJSON = try bench.write(Array(workload.geoJSON.utf8), name: "fences-\(polygons).geojson")
                let points = try bench.write(workload.pointBytes, name: "walk-\(polygons).f64")
                if let peer = bench.peer("geofence_peer.py", [geoJSON, points]) {
                    let agrees =
                        peer.answer["hits"] == Double(answer.hits) && peer.answer["checksum"] == Double(answer.checksum)
                    if !agrees {
                        bench.fail("shapely answered \(peer.answer) on \(polygons) polygons, TraceSim \(answer)")
                    }
                    peers.append(
                        PeerComparison(
                            peer: peer.peer, version: peer.version, timing: peer.timing,
                            work: Double(workload.points.count), traceSimRate: rate, agrees: agrees))
                }
            }
            bench.record(
                BenchmarkRow(
                    suite: "geofencing", name: "\(Bench.grouped(polygons)) polygons",
                    input: "\(Bench.grouped(workload.points.count)) points along a drive", unit: "points/s",
                    timing: timing, work: Double(workload.points.count),
                    figures: [
                        "indexBuildSeconds": build.median, "insidePairs": Double(answer.hits),
                        "geosFallbacks": Double(index.geosFallbacks),
                    ], peers: peers))
        }
    }

    static func indexAnswer(_ index: GeofenceIndex, _ points: [Coordinate]) throws(GeometryError) -> ContainmentAnswer {
        var answer = ContainmentAnswer()
        for (position, point) in points.enumerated() {
            try index.forEachFence(containing: point) { answer.add(point: position, fence: $0) }
        }
        return answer
    }

    static func geosScan(_ polygons: [PreparedPolygon], _ points: [Coordinate]) throws(GeometryError)
        -> ContainmentAnswer
    {
        var answer = ContainmentAnswer()
        for (position, point) in points.enumerated() {
            for (fence, polygon) in polygons.enumerated() {
                let box = polygon.bounds
                guard point.longitude >= box.minLongitude, point.longitude <= box.maxLongitude,
                    point.latitude >= box.minLatitude, point.latitude <= box.maxLatitude
                else { continue }
                if try polygon.contains(point) { answer.add(point: position, fence: fence) }
            }
        }
        return answer
    }
}
