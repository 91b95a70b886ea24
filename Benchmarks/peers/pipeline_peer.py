"""The engine's accuracy gate and odometer in NumPy, vectorised wherever the rules allow.

The rules are TraceSim's defaults (Documentation/Design/Engine.md):
- a fix worse than 100 m is rejected (lowAccuracy);
- a fix implying more than 60 m/s from the last accepted fix is rejected (impliedSpeed), with
  great-circle (haversine) distance on a 6,371,008.8 m sphere;
- the first fix is held until the next confirms it; when they disagree the held one is
  dropped as the cached fix (staleFirstFix) and the new one is held instead;
- the odometer adds the step between consecutive accepted fixes of 20 m or better: a flat
  (equirectangular) step below 5 km, the great circle beyond.

The implied-speed rule depends on the last *accepted* fix, so it is sequential. The pass below
checks every consecutive pair at once and walks one fix at a time only through runs of
rejections, which are rare. Fixes are delivered when they are taken, so nothing is stale.

The answer is the accepted and rejected counts and the odometer, which tracesim-bench
compares with its own engine stages."""

import numpy
import pandas

from peer_timing import arguments, emit, measure

RADIUS = 6_371_008.8
RADIANS = numpy.pi / 180
MAX_ACCURACY = 100.0
MAX_SPEED = 60.0
ODOMETER_ACCURACY = 20.0


def haversine(lat1, lon1, lat2, lon2):
    dlat = (lat2 - lat1) * RADIANS
    dlon = (lon2 - lon1) * RADIANS
    s1 = numpy.sin(dlat / 2)
    s2 = numpy.sin(dlon / 2)
    a = s1 * s1 + numpy.cos(lat1 * RADIANS) * numpy.cos(lat2 * RADIANS) * s2 * s2
    return 2 * RADIUS * numpy.arcsin(numpy.minimum(1.0, numpy.sqrt(a)))


def flat(lat1, lon1, lat2, lon2):
    mean = (lat1 + lat2) / 2 * RADIANS
    x = (lon2 - lon1) * RADIANS * numpy.cos(mean)
    y = (lat2 - lat1) * RADIANS
    return RADIUS * numpy.sqrt(x * x + y * y)


def gate_and_odometer(fixes):
    t, lat, lon, acc = fixes
    candidates = numpy.flatnonzero(acc <= MAX_ACCURACY)
    low_accuracy = len(acc) - len(candidates)
    ct, clat, clon = t[candidates], lat[candidates], lon[candidates]
    m = len(candidates)

    def too_fast(i, j):
        seconds = (ct[j] - ct[i]) / 1e9
        return haversine(clat[i], clon[i], clat[j], clon[j]) / seconds > MAX_SPEED

    accepted = numpy.zeros(m, dtype=bool)
    stale_first = 0
    implied = 0
    # The held first fix.
    held, k = 0, 1
    while k < m and too_fast(held, k):
        stale_first += 1
        held, k = k, k + 1
    if k >= m:
        return {"accepted": 0, "lowAccuracy": low_accuracy, "impliedSpeed": 0,
                "staleFirstFix": stale_first, "odometerMeters": 0.0}
    accepted[held] = True
    accepted[k:] = True
    # Every consecutive pair at once; then the runs that start with a violation, one by one.
    seconds = (ct[1:] - ct[:-1]) / 1e9
    fast = haversine(clat[:-1], clon[:-1], clat[1:], clon[1:]) / seconds > MAX_SPEED
    resume = k
    for violation in numpy.flatnonzero(fast) + 1:
        if violation <= resume:
            continue
        reference, j = violation - 1, violation
        while j < m and too_fast(reference, j):
            accepted[j] = False
            implied += 1
            j += 1
        resume = j

    kept = candidates[accepted]
    odometer_fixes = kept[acc[kept] <= ODOMETER_ACCURACY]
    olat, olon = lat[odometer_fixes], lon[odometer_fixes]
    steps = flat(olat[:-1], olon[:-1], olat[1:], olon[1:])
    far = steps >= 5000
    if far.any():
        steps[far] = haversine(olat[:-1][far], olon[:-1][far], olat[1:][far], olon[1:][far])
    return {"accepted": int(accepted.sum()), "lowAccuracy": int(low_accuracy), "impliedSpeed": implied,
            "staleFirstFix": stale_first, "odometerMeters": float(steps.sum())}


def main():
    options = arguments(__doc__, "csv")
    frame = pandas.read_csv(options.csv, comment="#")
    if frame["h_acc_m"].isna().any():
        raise SystemExit("pipeline_peer: every fix needs h_acc_m (dilution-only accuracy is not implemented here)")
    times = pandas.to_datetime(frame["time"], utc=True, format="ISO8601").dt.as_unit("ns").astype("int64").to_numpy()
    fixes = (times, frame["lat"].to_numpy(numpy.float64), frame["lon"].to_numpy(numpy.float64),
             frame["h_acc_m"].to_numpy(numpy.float64))
    seconds, answer = measure(options, lambda: fixes, gate_and_odometer)
    emit("NumPy gate + odometer", numpy.__version__, seconds, answer)


if __name__ == "__main__":
    main()
