#!/usr/bin/env python3
"""Sits between TraceSim and another engine and checks every line, both ways, against the
protocol's JSON Schema. A line that does not validate is answered with a line that is not
JSON ("INVALID ..."), which fails the run and names the problem.

    python3 validating_proxy.py SCHEMA.json ENGINE-COMMAND...
"""
import json
import subprocess
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
to_engine = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/toEngine"})
from_engine = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/fromEngine"})
inner = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def check(validator, line, direction):
    errors = sorted(validator.iter_errors(json.loads(line)), key=lambda error: error.path)
    if errors:
        sys.stdout.write(f"INVALID {direction}: {errors[0].message} in {line.strip()}\n")
        sys.stdout.flush()
        sys.exit(1)


for line in sys.stdin:
    check(to_engine, line, "to engine")
    message_type = json.loads(line)["type"]
    inner.stdin.write(line)
    inner.stdin.flush()
    while True:
        answer = inner.stdout.readline()
        if not answer:
            sys.exit(1)
        check(from_engine, answer, "from engine")
        sys.stdout.write(answer)
        answer_type = json.loads(answer)["type"]
        if answer_type == "done" or (message_type == "hello" and answer_type == "hello"):
            break
    sys.stdout.flush()
