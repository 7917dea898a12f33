#!/usr/bin/env python3
"""Write a PageIndex tree JSON of at least N nodes, built from real filings' PageIndex
exports (with node text), for the import and query benchmarks of seed 002.

usage: pageindex_tree.py DOCINDEX LIBRARY N OUT.json

Every document of LIBRARY is exported with `docindex export --format pageindex --with-text`;
their trees are concatenated (copies get a numbered title suffix) until N nodes are reached.
"""
import json, subprocess, sys

def count(nodes):
    return sum(1 + count(n.get("nodes", [])) for n in nodes)

def retitle(nodes, suffix, shift):
    """Titles get a copy suffix, ids go (they would repeat), and pages follow the pages
    of the trees before (PageIndex pages run through one document). The last page."""
    last = shift
    for n in nodes:
        n["title"] = f"{n['title']} ({suffix})"
        n.pop("node_id", None)
        for key in ("start_index", "end_index"):
            if key in n:
                n[key] += shift
                last = max(last, n[key])
        last = max(last, retitle(n.get("nodes", []), suffix, shift))
    return last

def main():
    docindex, library, wanted, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    listed = json.loads(subprocess.run([docindex, "--library", library, "--json", "list"],
                                       capture_output=True, text=True, check=True).stdout)
    trees = []
    for doc in listed:
        exported = subprocess.run([docindex, "--library", library, "export", doc["doc_id"],
                                   "--format", "pageindex", "--with-text"],
                                  capture_output=True, text=True, check=True).stdout
        trees.append(json.loads(exported)["structure"])
    structure, copy, pages = [], 0, 0
    while count(structure) < wanted:
        for tree in trees:
            part = json.loads(json.dumps(tree))
            pages = retitle(part, f"copy {copy}", pages)
            structure.extend(part)
            if count(structure) >= wanted:
                break
        copy += 1
    json.dump({"doc_name": f"benchmark tree of {count(structure)} nodes",
               "structure": structure}, open(out, "w"))
    print(f"{out}: {count(structure)} nodes")

if __name__ == "__main__":
    main()
