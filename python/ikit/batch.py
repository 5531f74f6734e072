"""Run an `ikc batch` manifest on a Dask cluster: python -m ikit.batch MANIFEST.

The manifest is the one `ikc batch` reads (one ikc command line per line).
ikc itself reads it and says which lines are up to date (`ikc batch --plan`),
so both runners skip and run the same lines; each line left is one Dask task
that runs ikc with the line's arguments in the current directory, so its
outputs are the bytes `ikc batch` (or the line run alone) would write.

Without --scheduler a local cluster of --workers processes starts on
127.0.0.1. With --scheduler tcp://HOST:PORT the tasks go to a running
cluster: there every worker needs ikc at the same path (--ikc) and the
manifest's files at the same paths (a shared file system)."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time


class BatchError(Exception):
    """A manifest ikc refused, or no ikc to run."""


def find_ikc(path=None):
    """The ikc binary: `path`, else $IKC, else ikc on PATH (absolute)."""
    for candidate in (path, os.environ.get("IKC"), shutil.which("ikc")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    raise BatchError("ikc not found: give --ikc PATH, set IKC, or put ikc on PATH")


def plan(manifest, ikc, force=False):
    """The manifest's lines as ikc reads them: [{"line", "args", "up_to_date"}]."""
    command = [ikc, "batch", manifest, "--plan"] + (["--force"] if force else [])
    done = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise BatchError(done.stderr.strip() or "ikc batch --plan failed with exit %d" % done.returncode)
    return json.loads(done.stdout)["lines"]


def run_line(ikc, args, cwd):
    """One manifest line on a worker: ikc with `args` in `cwd`; its exit code,
    seconds and last line of output."""
    start = time.perf_counter()
    done = subprocess.run([ikc] + list(args), cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    output = [line for line in (done.stdout + "\n" + done.stderr).splitlines() if line.strip()]
    return {"exit_code": done.returncode, "seconds": time.perf_counter() - start,
            "message": output[-1] if output else ""}


def _client(scheduler, workers):
    """A Dask client on `scheduler`, or on a new local cluster of `workers`
    single-threaded processes on loopback; and the cluster to close (or None)."""
    from distributed import Client, LocalCluster
    if scheduler:
        return Client(scheduler), None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=None)
    return Client(cluster), cluster


def run(manifest, scheduler=None, workers=2, force=False, ikc=None):
    """Run the manifest's lines that are not up to date on Dask; a summary
    dict as `ikc batch --json` gives (lines with state, exit code, seconds)."""
    ikc = find_ikc(ikc)
    lines = plan(manifest, ikc, force)
    todo = [line for line in lines if not line["up_to_date"]]
    start = time.perf_counter()
    results = []
    if todo:
        client, cluster = _client(scheduler, workers)
        try:
            cwd = os.getcwd()
            futures = client.map(run_line, [ikc] * len(todo), [line["args"] for line in todo], [cwd] * len(todo),
                                 pure=False)
            results = client.gather(futures)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    by_line = {line["line"]: result for line, result in zip(todo, results)}
    summary = {"manifest": manifest, "done": 0, "up_to_date": 0, "failed": 0,
               "seconds": time.perf_counter() - start, "lines": []}
    for line in lines:
        result = by_line.get(line["line"])
        if result is None:
            state, entry = "up to date", {"exit_code": 0, "seconds": 0.0}
        else:
            state = "done" if result["exit_code"] == 0 else "failed"
            entry = dict(result)
        summary[state.replace(" ", "_")] += 1
        summary["lines"].append(dict(entry, line=line["line"], args=line["args"], state=state))
    return summary


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m ikit.batch", description=__doc__.split("\n\n")[0])
    parser.add_argument("manifest", help="the ikc batch manifest: one ikc command line per line")
    parser.add_argument("--scheduler", help="a running Dask scheduler, tcp://HOST:PORT (default: a local cluster)")
    parser.add_argument("--workers", type=int, default=2, help="local cluster worker processes (default 2)")
    parser.add_argument("--force", action="store_true", help="run lines that are up to date too")
    parser.add_argument("--ikc", help="the ikc binary (default: $IKC, then ikc on PATH)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    options = parser.parse_args(argv)
    if options.workers < 1:
        parser.error("--workers must be at least 1")
    try:
        summary = run(options.manifest, options.scheduler, options.workers, options.force, options.ikc)
    except BatchError as error:
        print("python -m ikit.batch: %s" % error, file=sys.stderr)
        return 2
    if options.json:
        print(json.dumps(summary, indent=2))
    else:
        for line in summary["lines"]:
            if line["state"] == "failed":
                print("line %d failed (exit %d): %s\n    %s" % (line["line"], line["exit_code"],
                                                           " ".join(line["args"]), line["message"]))
        print("%d lines: %d done, %d up to date, %d failed in %.2f s" % (
            len(summary["lines"]), summary["done"], summary["up_to_date"], summary["failed"], summary["seconds"]))
    return 1 if summary["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
