#!/usr/bin/env python3
"""Validates a file of protocol lines against the schema: each line is prefixed with
"to " (TraceSim to engine) or "from " (engine to TraceSim). Prints the first invalid line."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
validators = {
    "to": jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/toEngine"}),
    "from": jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/fromEngine"}),
}
count = 0
for line in open(sys.argv[2]):
    direction, _, text = line.partition(" ")
    errors = list(validators[direction].iter_errors(json.loads(text)))
    if errors:
        sys.exit(f"invalid ({direction}): {errors[0].message}: {text.strip()}")
    count += 1
print(f"{count} valid")
