#!/usr/bin/env python3
"""Summarizes JFR execution samples by the gateway's own methods.

    jfr print --stack-depth 64 --events jdk.ExecutionSample rec.jfr > samples.txt
    python3 jfr_hotspots.py samples.txt

Prints, for the com.sandboxgateway.* methods: how many samples had the method anywhere on the stack
(inclusive), and how many had it as the innermost gateway frame (its own time plus the JDK code it
calls directly, e.g. SHA-256 under Pseudonymizer). Standard library only.
"""
import collections
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    blocks = text.split("jdk.ExecutionSample {")[1:]
    inclusive, nearest, outside = collections.Counter(), collections.Counter(), collections.Counter()
    inside = 0
    for block in blocks:
        if "stackTrace = [\n" not in block:
            continue
        body = block.split("stackTrace = [\n", 1)[1].split("\n  ]", 1)[0]
        frames = [re.sub(r"\s+line:.*", "", line.strip()) for line in body.splitlines()
                  if line.strip() and line.strip() != "..."]
        ours = [f for f in frames if f.startswith("com.sandboxgateway.")]
        if not ours:
            outside[frames[0] if frames else "?"] += 1
            continue
        inside += 1
        for frame in dict.fromkeys(ours):
            inclusive[frame] += 1
        nearest[ours[0]] += 1
    total = len(blocks)
    print(f"   JFR: {total} execution samples, {inside} with a com.sandboxgateway frame")
    print("   innermost gateway frame (self + JDK callees):")
    for frame, count in nearest.most_common(12):
        print(f"   {count:6d} {100 * count / max(total, 1):5.1f}%  {frame}")
    print("   inclusive (anywhere on the stack), below the request entry points:")
    for frame, count in inclusive.most_common(40):
        if count < inside * 0.98:
            print(f"   {count:6d} {100 * count / max(total, 1):5.1f}%  {frame}")
    if outside:
        print("   samples outside gateway code:", ", ".join(f"{c}x {f}" for f, c in outside.most_common(3)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
