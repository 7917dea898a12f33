// The library list: filters by company, year and type, and the choices each filter offers.

export interface DocumentSummary {
  doc_id: string;
  doc_name: string;
  doc_type: string;
  format: string;
  page_count: number;
  company_name: string | null;
  ticker: string | null;
  fiscal_year: number | null;
  period_end_date: string | null;
  node_count: number;
  char_count: number;
  description: string | null;
  /** Pages without text, LLM stages the provider failed (absent in older listings). */
  warnings?: string[];
  /** Listing only: its chunks have vectors, so dense search reaches it. */
  dense_ready?: boolean;
}

export interface LibraryFilter {
  company: string;
  year: string;
  type: string;
  text: string;
}

export const noFilter: LibraryFilter = { company: "", year: "", type: "", text: "" };

export function companyOf(doc: DocumentSummary): string {
  return doc.company_name ?? doc.ticker ?? "";
}

/**
 * One company however its filings spell it: "THE BUCKLE, INC." on an exhibit and "BUCKLE,
 * INC" on its 8-K, "Apple Inc." and "APPLE INC": case, punctuation and a leading "The" aside.
 */
export function companyKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[.,'’]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^the /, "");
}

export function filterDocuments(docs: DocumentSummary[], f: LibraryFilter): DocumentSummary[] {
  const text = f.text.trim().toLowerCase();
  const company = companyKey(f.company);
  return docs.filter(
    (d) =>
      (!company || companyKey(companyOf(d)) === company) &&
      (!f.year || String(d.fiscal_year ?? "") === f.year) &&
      (!f.type || d.doc_type === f.type) &&
      (!text ||
        d.doc_name.toLowerCase().includes(text) ||
        companyOf(d).toLowerCase().includes(text)),
  );
}

/** Each company once, under the spelling most of its filings use (then the first in order). */
function companyChoices(docs: DocumentSummary[]): string[] {
  const spellings = new Map<string, Map<string, number>>();
  for (const name of docs.map(companyOf).filter((n) => n)) {
    const key = companyKey(name);
    const counts = spellings.get(key) ?? new Map<string, number>();
    counts.set(name, (counts.get(name) ?? 0) + 1);
    spellings.set(key, counts);
  }
  return [...spellings.values()]
    .map((counts) => [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0])
    .sort();
}

/** The distinct values each filter can take, sorted. */
export function facets(docs: DocumentSummary[]): { companies: string[]; years: string[]; types: string[] } {
  const uniq = (xs: string[]) => [...new Set(xs.filter((x) => x))].sort();
  return {
    companies: companyChoices(docs),
    years: uniq(docs.map((d) => String(d.fiscal_year ?? ""))).reverse(),
    types: uniq(docs.map((d) => d.doc_type)),
  };
}

/** "Q3 FY2023 · 10-Q" style period label. */
export function periodLabel(doc: DocumentSummary): string {
  if (doc.period_end_date) return doc.period_end_date;
  return doc.fiscal_year ? `FY${doc.fiscal_year}` : "";
}
