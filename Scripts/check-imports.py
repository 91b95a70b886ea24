#!/usr/bin/env python3
"""Every module a target's Swift files import is declared in that target's dependencies.

SwiftPM builds an undeclared import when another dependency happens to pull the module in,
so the manifest drifts from the code without an error until that other dependency changes.
Reads Package.swift as text: the manifest keeps one `.target(` call per target.
"""
import glob
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
os.chdir(root)
manifest = open("Package.swift", encoding="utf-8").read()
calls = re.split(r"\.(?:target|executableTarget|testTarget|systemLibrary)\(", manifest)[1:]
targets = {}
for call in calls:
    name = re.search(r'name:\s*"([^"]+)"', call).group(1)
    listed = re.search(r"dependencies:\s*\[(.*?)\]", call, re.S)
    path = re.search(r'path:\s*"([^"]+)"', call)
    folder = path.group(1) if path else ("Sources/" + name if os.path.isdir("Sources/" + name) else "Tests/" + name)
    targets[name] = (set(re.findall(r'"([^"]+)"', listed.group(1))) if listed else set(), folder)

import_line = re.compile(r"\s*(?:@\w+\s+)*(?:(?:public|package|internal)\s+)?import\s+(\w+)")
problems = []
for name, (declared, folder) in sorted(targets.items()):
    for file in sorted(glob.glob(folder + "/**/*.swift", recursive=True)):
        for number, line in enumerate(open(file, encoding="utf-8"), 1):
            match = import_line.match(line)
            if match and match.group(1) in targets and match.group(1) != name and match.group(1) not in declared:
                problems.append(f"{file}:{number}: {name} imports {match.group(1)}, which Package.swift does not declare")
for problem in problems:
    print("error: " + problem, file=sys.stderr)
if problems:
    sys.exit(1)
print("imports: every target declares what it imports")
