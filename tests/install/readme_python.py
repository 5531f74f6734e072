"""The README's Python install lines, run as written: the shell block of
README.md's "## Python" section, read from the README itself (so the two
cannot drift), run line for line in one shell in a fresh copy of the
project (the files git tracks or would track, as a clone has them), with
the network cut off (a network namespace of its own where `unshare` may make
one, else proxies that lead nowhere) and a home of its own. In that same
shell, after the block, tests/install/readme_python_check.py must find
`python3` to be the block's virtual environment, import ikit from it and
solve a leg checked by forward kinematics.

Run by scripts/test-all.sh with Debian's /usr/bin/python3:
    /usr/bin/python3 tests/install/readme_python.py
Exits 1 with the block's output when any of it fails."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).resolve().with_name("readme_python_check.py")
# What a checkout holds but a fresh clone does not (when git cannot say).
NOT_IN_A_CLONE = {".git", "build", "node_modules", "out", "__pycache__", ".pytest_cache", "ikit.egg-info"}


def readme_block(readme):
    """The first ```sh block of the "## Python" section (up to the next
    "## " heading)."""
    text = readme.read_text()
    start = text.find("\n## Python\n")
    if start < 0:
        sys.exit("FAIL: README.md has no '## Python' section")
    section = text[start + 1:]
    end = section.find("\n## ")
    section = section if end < 0 else section[:end]
    found = re.search(r"^```sh\n(.*?)^```", section, re.S | re.M)
    if not found:
        sys.exit("FAIL: the README's Python section has no ```sh block")
    block = found.group(1)
    if "python3 -c 'import ikit" not in block:
        sys.exit("FAIL: the README's Python block no longer ends in python3 -c 'import ikit...'")
    return block


def clone_files(root):
    """The project's files as a clone of the working tree has them: what git
    tracks plus what it would add (not ignored), as they are on disk."""
    try:
        listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                                 "--exclude-standard"], check=True, capture_output=True).stdout
        return [Path(p.decode()) for p in listed.split(b"\0") if p]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d not in NOT_IN_A_CLONE]
            files += [Path(folder, n).relative_to(root) for n in names]
        return files


def copy_project(root, dest):
    for rel in clone_files(root):
        src = root / rel
        if not src.is_file() and not src.is_symlink():  # deleted in the working tree
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / rel, follow_symlinks=False)


def offline_runner():
    """A command prefix that runs without network, and what it is."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "--net", "true"], capture_output=True).returncode == 0:
        return [unshare, "--net"], "in a network namespace with no network"
    return [], "with every proxy pointed at a closed port (unshare --net is not allowed here)"


def main():
    block = readme_block(ROOT / "README.md")
    with tempfile.TemporaryDirectory(prefix="ikit-readme-python.") as work:
        work = Path(work)
        clone, home = work / "ikit", work / "home"
        clone.mkdir()
        home.mkdir()
        copy_project(ROOT, clone)
        script = work / "block.sh"
        # The block as the README has it, then the check in the same shell.
        script.write_text(block + '\npython3 "$IKIT_README_CHECK"\n')
        env = {k: v for k, v in os.environ.items()
               if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PIP_TARGET",
                            "PIP_PREFIX", "PIP_USER", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
        env.update(HOME=str(home), IKIT_README_CHECK=str(CHECK), IKIT_README_VENV_ROOT=str(clone))
        prefix, how = offline_runner()
        if not prefix:
            dead = "http://127.0.0.1:9"
            env.update(http_proxy=dead, https_proxy=dead, HTTP_PROXY=dead, HTTPS_PROXY=dead, no_proxy="")
        print("README's Python block, in a fresh copy of the project, %s:" % how)
        print("".join("  $ %s\n" % line for line in block.splitlines()), end="", flush=True)
        run = subprocess.run(prefix + ["bash", "-e", str(script)], cwd=clone, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if run.returncode != 0:
            print(run.stdout, end="")
            print("FAIL: the README's Python block (with the check after it) exited %d" % run.returncode)
            return 1
        print(run.stdout.rstrip().splitlines()[-1])
    print("README's Python block: installed, imported and solved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
