import sqlite3, re, sys, json
lib, docname, net = sys.argv[1], sys.argv[2], sys.argv[3]
db = sqlite3.connect(lib + '/library.sqlite')
cols=[r[1] for r in db.execute("pragma table_info(document_text)")]
doc_id = db.execute("select doc_id from documents where doc_name=?", (docname,)).fetchone()[0]
text = db.execute(f"select {cols[1]} from document_text where doc_id=?", (doc_id,)).fetchone()[0]
rx = re.compile(net, re.I)
out=[]
for line in text.split('\n'):
    for s in re.split(r'(?<=[.!?)"”])\s+(?=[A-Z“"(])', line):
        s=s.strip()
        if len(s) > 15 and rx.search(s):
            out.append(s)
seen=set(); i=0
for s in out:
    k=re.sub(r'\s+',' ',s)[:90]
    if k in seen: continue
    seen.add(k); i+=1
    print(f"{i}\t{' '.join(s.split())[:400]}")
