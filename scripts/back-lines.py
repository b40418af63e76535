#!/usr/bin/env python3
"""The line counts issue 18 measures src/back by.

    python3 scripts/back-lines.py              # the two totals
    python3 scripts/back-lines.py --files      # and the production lines per file
    python3 scripts/back-lines.py --at REV     # the same for a commit (git)
    python3 scripts/back-lines.py --history BASE
        # each commit from BASE to HEAD (first parents: a merge counts as
        # one step) that changes the production lines, with the change

Both leave out src/back/host (newer than the refactor the counts compare
against):

- all lines: every .rs file but the tests.rs files (test helpers and
  #[cfg(test)] modules inside other files count);
- production lines: no tests.rs, *_tests.rs or test_support.rs file and no
  #[cfg(test)] item; the braces that end an item are counted outside
  comments, strings (plain and raw) and char literals.
"""
import os
import re
import subprocess
import sys


def code_mask(src):
    """Per character of `src`: True where it is code, False inside a
    comment, a string (plain or raw) or a char literal."""
    n = len(src)
    mask = [True] * n

    def blank(start, end):
        for k in range(start, min(end, n)):
            mask[k] = False

    i = 0
    while i < n:
        if src.startswith("//", i):
            end = src.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
            continue
        if src.startswith("/*", i):
            depth = 0
            j = i
            while j < n:
                if src.startswith("/*", j):
                    depth += 1
                    j += 2
                elif src.startswith("*/", j):
                    depth -= 1
                    j += 2
                    if depth == 0:
                        break
                else:
                    j += 1
            blank(i, j)
            i = j
            continue
        raw = re.match(r'b?r(#*)"', src[i : i + 10])
        if raw and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            close = '"' + raw.group(1)
            end = src.find(close, i + len(raw.group(0)))
            end = n if end < 0 else end + len(close)
            blank(i, end)
            i = end
            continue
        if src[i] == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
            continue
        if src[i] == "'":
            char = re.match(r"'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'])'", src[i : i + 12])
            if char:
                blank(i, i + len(char.group(0)))
                i += len(char.group(0))
                continue
        i += 1
    return mask


def prod(src):
    """The lines of the Rust text `src` outside #[cfg(test)] items."""
    mask = code_mask(src)
    lines = src.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    code = []
    at = 0
    for line in lines:
        code.append("".join(ch for k, ch in enumerate(line) if mask[at + k]))
        at += len(line) + 1
    count = 0
    i = 0
    while i < len(lines):
        if code[i].strip() != "#[cfg(test)]":
            count += 1
            i += 1
            continue
        # Skip the item: its other attributes, then one line ending in `;`
        # or everything up to the brace that closes it.
        i += 1
        while i < len(lines) and code[i].strip().startswith("#["):
            i += 1
        if i < len(lines) and code[i].rstrip().endswith(";") and "{" not in code[i]:
            i += 1
            continue
        depth = 0
        opened = False
        while i < len(lines):
            depth += code[i].count("{") - code[i].count("}")
            opened = opened or "{" in code[i]
            i += 1
            if opened and depth <= 0:
                break
    return count

def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def sources(rev):
    """(path, blob id or None, reader) for each .rs file of src/back but
    src/back/host, in the working tree (rev None) or at commit `rev`."""
    if rev is None:
        top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
        for folder, _, files in os.walk(os.path.join(top, "src", "back")):
            for f in files:
                path = os.path.relpath(os.path.join(folder, f), top)
                yield path, None, lambda path=path: open(os.path.join(top, path)).read()
        return
    for line in git("ls-tree", "-r", rev, "--", "src/back").splitlines():
        meta, path = line.split("\t", 1)
        blob = meta.split()[2]
        yield path, blob, lambda blob=blob: git("cat-file", "blob", blob)


COUNTS = {}


def counts(rev=None):
    """(all lines, [(production lines, path)]) of src/back at `rev`."""
    rows = []
    all_lines = 0
    for path, blob, read in sources(rev):
        parts = path.split("/")
        name = parts[-1]
        if not name.endswith(".rs") or parts[2] == "host":
            continue
        if blob is None or blob not in COUNTS:
            src = read()
            tests = name == "tests.rs" or name.endswith("_tests.rs") or name == "test_support.rs"
            found = (
                0 if name == "tests.rs" else src.count("\n") + (not src.endswith("\n") and src != ""),
                None if tests else prod(src),
            )
            if blob is not None:
                COUNTS[blob] = found
        else:
            found = COUNTS[blob]
        all_lines += found[0]
        if found[1] is not None:
            rows.append((found[1], path))
    return all_lines, rows


def main():
    args = sys.argv[1:]
    if "--history" in args:
        base = args[args.index("--history") + 1]
        revs = git("rev-list", "--reverse", "--first-parent", f"{base}..HEAD").split()
        before = sum(c for c, _ in counts(base)[1])
        print(before, base[:7], "(base)")
        for rev in revs:
            now = sum(c for c, _ in counts(rev)[1])
            if now != before:
                subject = git("log", "-1", "--format=%s", rev).strip()[:100]
                print(f"{now - before:+d}", now, rev[:7], subject)
            before = now
        return
    rev = args[args.index("--at") + 1] if "--at" in args else None
    all_lines, rows = counts(rev)
    if "--files" in args:
        for count, path in sorted(rows):
            print(count, path)
    print("src/back without host: all lines (but tests.rs files)", all_lines)
    print("src/back without host: production lines", sum(c for c, _ in rows))


if __name__ == "__main__":
    main()
