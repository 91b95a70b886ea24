"""Python's json.loads on a configuration file held in memory: the answer is the count of
point fences, polygon vertices or timeline events, as tracesim-bench counts them.

json.loads only builds the document; TraceSim's time also covers checking every value."""

import json
import sys

from peer_timing import arguments, emit, measure


def count(kind, document):
    if kind == "point-fences":
        return len(document["features"])
    if kind == "polygon":
        return len(document["geometry"]["coordinates"][0]) - 1
    return len(document["timeline"])


def main():
    options = arguments(__doc__, "json", "kind")
    with open(options.json, "rb") as handle:
        data = handle.read()

    def parse(buffer):
        return count(options.kind, json.loads(buffer))

    seconds, answer = measure(options, lambda: data, parse)
    version = "%d.%d.%d" % sys.version_info[:3]
    emit("json.loads (Python)", version, seconds, {"count": answer})


if __name__ == "__main__":
    main()
