"""pandas.read_csv on TraceSim canonical CSV held in memory: the answer is the row count.

pandas is left to its defaults (no date parsing), which is the cheapest way a user would load
the file; TraceSim parses and validates every timestamp and number."""

import io

import pandas

from peer_timing import arguments, emit, measure


def main():
    options = arguments(__doc__, "csv")
    with open(options.csv, "rb") as handle:
        data = handle.read()

    def parse(buffer):
        return len(pandas.read_csv(buffer, comment="#"))

    seconds, rows = measure(options, lambda: io.BytesIO(data), parse)
    emit("pandas.read_csv", pandas.__version__, seconds, {"fixes": rows})


if __name__ == "__main__":
    main()
