"""gpxpy reading a GPX file held in memory: the answer is the number of track points."""

import gpxpy

from peer_timing import arguments, emit, measure


def main():
    options = arguments(__doc__, "gpx")
    with open(options.gpx, encoding="utf-8") as handle:
        text = handle.read()

    def parse(document):
        gpx = gpxpy.parse(document)
        return sum(len(segment.points) for track in gpx.tracks for segment in track.segments)

    seconds, points = measure(options, lambda: text, parse)
    emit("gpxpy", gpxpy.__version__, seconds, {"fixes": points})


if __name__ == "__main__":
    main()
