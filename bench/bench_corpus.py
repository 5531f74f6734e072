#!/usr/bin/python3
"""A mocap corpus through one command: the CMU takes of the real-asset corpus
repeated to TAKES takes, each cleaned (`ikc clean TAKE -o OUT`), run by
`ikc batch -j WORKERS` and by `python -m ikit.batch --workers WORKERS` (a
local Dask cluster on loopback) over the same manifest.

Protocol: every take of $IKIT_DATA/bvh (or ../shared/data/bvh) listed in
turn until TAKES lines; each line writes its own output; both runners are
forced to run every line (--force) and timed by wall clock from start to
the summary (the Dask figure includes starting the cluster); REPEATS runs
each, the median reported as takes and frames per second. Writes
bench_corpus.csv in the current folder.

Usage: IKC=build/release/ikc PYTHONPATH=<folder with ikit> /usr/bin/python3 bench/bench_corpus.py
       [TAKES] [WORKERS] [REPEATS]
"""
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ikit import batch


def take_frames(path):
    """The frame count a BVH file declares."""
    with open(path, "rb") as f:
        for line in f:
            if line.startswith(b"Frames:"):
                return int(line.split()[1])
    return 0


def main(argv):
    takes = int(argv[1]) if len(argv) > 1 else 300
    workers = int(argv[2]) if len(argv) > 2 else 2
    repeats = int(argv[3]) if len(argv) > 3 else 3
    data = Path(os.environ.get("IKIT_DATA", Path(__file__).resolve().parents[1] / ".." / "shared" / "data"))
    sources = sorted((data / "bvh").glob("*.bvh"))
    if not sources:
        print("skipped: real-asset corpus not found (%s)" % data)
        return 0
    ikc = batch.find_ikc()
    with tempfile.TemporaryDirectory(prefix="ikit-bench-corpus-") as folder:
        manifest = Path(folder) / "corpus.txt"
        lines, frames = [], 0
        for k in range(takes):
            source = sources[k % len(sources)]
            frames += take_frames(source)
            lines.append('clean "%s" -o "%s/clean_%04d.bvh"' % (source, folder, k))
        manifest.write_text("\n".join(lines) + "\n")
        runners = {
            "ikc batch": lambda: subprocess.run([ikc, "batch", str(manifest), "-j", str(workers), "--force",
                                                 "--quiet", "--json"], capture_output=True, text=True, check=False),
            "python -m ikit.batch (Dask)": lambda: batch.run(str(manifest), workers=workers, force=True, ikc=ikc),
        }
        rows = []
        print("%d takes (%d frames) from %d CMU files, %d workers, median of %d" % (
            takes, frames, len(sources), workers, repeats))
        print("%-30s %10s %12s %14s" % ("runner", "seconds", "takes/s", "frames/s"))
        for name, runner in runners.items():
            seconds = []
            for _ in range(repeats):
                start = time.perf_counter()
                result = runner()
                seconds.append(time.perf_counter() - start)
                summary = result if isinstance(result, dict) else json.loads(result.stdout)
                if summary["failed"]:
                    print("%s: %d lines failed" % (name, summary["failed"]), file=sys.stderr)
                    return 1
            median = statistics.median(seconds)
            rows.append([name, takes, frames, workers, "%.3f" % median, "%.1f" % (takes / median),
                         "%.0f" % (frames / median), repeats])
            print("%-30s %10.2f %12.1f %14.0f" % (name, median, takes / median, frames / median))
    with open("bench_corpus.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["runner", "takes", "frames", "workers", "median_s", "takes_per_s", "frames_per_s", "repeats"])
        writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
