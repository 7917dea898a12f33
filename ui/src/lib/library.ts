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

export function filterDocuments(docs: DocumentSummary[], f: LibraryFilter): DocumentSummary[] {
  const text = f.text.trim().toLowerCase();
  return docs.filter(
    (d) =>
      (!f.company || companyOf(d) === f.company) &&
      (!f.year || String(d.fiscal_year ?? "") === f.year) &&
      (!f.type || d.doc_type === f.type) &&
      (!text ||
        d.doc_name.toLowerCase().includes(text) ||
        companyOf(d).toLowerCase().includes(text)),
  );
}

/** The distinct values each filter can take, sorted. */
export function facets(docs: DocumentSummary[]): { companies: string[]; years: string[]; types: string[] } {
  const uniq = (xs: string[]) => [...new Set(xs.filter((x) => x))].sort();
  return {
    companies: uniq(docs.map(companyOf)),
    years: uniq(docs.map((d) => String(d.fiscal_year ?? ""))).reverse(),
    types: uniq(docs.map((d) => d.doc_type)),
  };
}

/** "Q3 FY2023 · 10-Q" style period label. */
export function periodLabel(doc: DocumentSummary): string {
  if (doc.period_end_date) return doc.period_end_date;
  return doc.fiscal_year ? `FY${doc.fiscal_year}` : "";
}
