"""shapely 2: an STRtree over prepared polygons for candidates, then contains_xy on them.

The answer is the number of (point, polygon) pairs inside and the sum over them of
(point index + 1) * (polygon index + 1), which tracesim-bench compares with its own."""

import json

import numpy
import shapely

from peer_timing import arguments, emit, measure


def main():
    options = arguments(__doc__, "geojson", "points")
    with open(options.geojson, encoding="utf-8") as handle:
        features = json.load(handle)["features"]
    polygons = numpy.array([shapely.Polygon(f["geometry"]["coordinates"][0]) for f in features])
    shapely.prepare(polygons)
    xy = numpy.fromfile(options.points, dtype="<f8").reshape(-1, 2)
    x, y = xy[:, 0].copy(), xy[:, 1].copy()
    points = shapely.points(x, y)
    tree = shapely.STRtree(polygons)

    def query(_):
        point_index, polygon_index = tree.query(points)
        inside = shapely.contains_xy(polygons[polygon_index], x[point_index], y[point_index])
        hits_point = point_index[inside].astype(numpy.int64)
        hits_polygon = polygon_index[inside].astype(numpy.int64)
        return {"hits": int(inside.sum()), "checksum": int(((hits_point + 1) * (hits_polygon + 1)).sum())}

    seconds, answer = measure(options, lambda: None, query)
    emit("shapely STRtree + contains_xy", shapely.__version__, seconds, answer)


if __name__ == "__main__":
    main()
