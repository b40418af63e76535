#!/usr/bin/env python3
"""The line counts issue 18 measures src/back by.

    python3 scripts/back-lines.py            # the two totals
    python3 scripts/back-lines.py --files    # and the production lines per file

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


def prod(path):
    """The lines of `path` outside #[cfg(test)] items."""
    with open(path) as f:
        src = f.read()
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

def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "back")
    rows = []
    all_lines = 0
    for folder, _, files in os.walk(root):
        if os.path.relpath(folder, root).split(os.sep)[0] == "host":
            continue
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(folder, f)
            if f != "tests.rs":
                with open(path) as text:
                    all_lines += sum(1 for _ in text)
            if f == "tests.rs" or f.endswith("_tests.rs") or f == "test_support.rs":
                continue
            rows.append((prod(path), os.path.relpath(path, os.path.join(root, "..", ".."))))
    if "--files" in sys.argv[1:]:
        for count, path in sorted(rows):
            print(count, path)
    print("src/back without host: all lines (but tests.rs files)", all_lines)
    print("src/back without host: production lines", sum(c for c, _ in rows))


if __name__ == "__main__":
    main()
