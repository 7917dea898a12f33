#!/usr/bin/env python3
"""A library of about 1,000 filings, and how search holds up in it (issue 16).

    python3 tests/bench/library_1000.py BIN CORPUS_DIR WORK_DIR [--files 1000] [--embed]

Copies the corpus's filings until there are --files of them, each with unique bytes (a
comment appended to HTML and text, a line after a PDF's end), so each is its own document
(the doc id is the SHA-256 of the bytes). Indexes them with `--jobs 2` (embeddings only
with --embed), then times library-wide `docindex search` as a whole process over a fixed
list of analyst queries: p50/p95 wall time and peak RSS, and the library's size per filing.
"""
import argparse, os, shutil, statistics, subprocess, sys, time

QUERIES = [
    "capex", "quick ratio", "what drove the margin", "share repurchases",
    "cash and cash equivalents", "supply chain disruptions", "net income per diluted share",
    "debt maturities", "goodwill impairment", "revenue by geography", "dividends declared",
    "cybersecurity risk", "foreign currency exposure", "operating lease liabilities",
    "headcount employees", "effective tax rate", "research and development expense",
    "segment operating income", "inventory", "auditor",
]


def copy_corpus(corpus, out, count):
    os.makedirs(out, exist_ok=True)
    files = sorted(f for f in os.listdir(corpus) if os.path.isfile(os.path.join(corpus, f)))
    made = []
    n = 0
    while len(made) < count:
        for name in files:
            if len(made) >= count:
                break
            stem, ext = os.path.splitext(name)
            target = os.path.join(out, f"{stem}-copy{n:04d}{ext}")
            if not os.path.exists(target):
                with open(os.path.join(corpus, name), "rb") as src:
                    data = src.read()
                tail = (f"\n% docindex bench copy {n}\n" if ext.lower() == ".pdf"
                        else f"\n<!-- docindex bench copy {n} -->\n")
                with open(target, "wb") as dst:
                    dst.write(data + tail.encode())
            made.append(target)
        n += 1
    return made


def timed(cmd, env):
    """Wall seconds and peak RSS (MB) of one process."""
    start = time.time()
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True, env=env)
    wall = time.time() - start
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {out.stderr[-2000:]}")
    rss_kb = int(out.stderr.strip().splitlines()[-1])
    return wall, rss_kb / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("corpus")
    ap.add_argument("work")
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--embed", action="store_true")
    args = ap.parse_args()
    files = copy_corpus(args.corpus, os.path.join(args.work, "filings"), args.files)
    lib = os.path.join(args.work, "library")
    env = dict(os.environ)
    if not args.embed:
        env["DOCINDEX_SKIP_EMBED"] = "1"
    if not os.path.exists(os.path.join(lib, "library.sqlite")):
        start = time.time()
        wall, rss = timed([args.bin, "--library", lib, "index", "--jobs", "2"] + files, env)
        print(f"indexed {len(files)} filings in {wall:.0f} s ({len(files) / wall:.1f} files/s), peak {rss:.0f} MB")
    size = sum(os.path.getsize(os.path.join(lib, f)) for f in os.listdir(lib))
    print(f"library: {size / 2**20:.0f} MB, {size / len(files) / 2**20:.2f} MB per filing")
    walls, rsss = [], []
    for q in QUERIES:
        wall, rss = timed([args.bin, "--library", lib, "search", q, "--limit", "10"], env)
        walls.append(wall * 1000)
        rsss.append(rss)
    walls.sort()
    p95 = walls[int(round(0.95 * (len(walls) - 1)))]
    print(f"search as a whole process over {len(QUERIES)} queries: p50 {statistics.median(walls):.0f} ms, "
          f"p95 {p95:.0f} ms, peak RSS max {max(rsss):.0f} MB")


if __name__ == "__main__":
    main()
