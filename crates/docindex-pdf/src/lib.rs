//! Reads PDF files through pdfium (bound at run time with `pdfium-render`) and hands the core
//! one page at a time: characters with boxes, baselines and fonts, link annotations, image
//! boxes, and the outline; and draws a page as a picture for the page view. Layout analysis
//! is the core's job, not this crate's.

use docindex_core::ingest::pdf::{
    self as layout, Glyph, PdfInfo, PdfLimits, PdfLinkArea, PdfLinkTarget, PdfOutlineEntry,
    PdfReader, Rect, MAX_PAGE_GLYPHS,
};
use docindex_core::{IngestError, Result};
use pdfium_render::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The file name of the pdfium shared library on this platform.
pub const LIBRARY_NAME: &str = "libpdfium.so";

/// How to get pdfium when it is missing; shown in every "not found" error.
pub const INSTALL_HINT: &str = "run `bash scripts/setup.sh` from the DocumentIndex repository \
(it fetches libpdfium.so from the PyPI wheel pypdfium2==5.15.2 into ./pdfium/), or set \
DOCINDEX_PDFIUM to the path of a libpdfium.so";

/// The package's resource folder, relative to the folder above the binary's.
const INSTALLED_RESOURCES: &str = "lib/DocumentIndex";

static PDFIUM: OnceLock<std::result::Result<Pdfium, String>> = OnceLock::new();
/// pdfium keeps global state: one document is read at a time in this process.
static READ_LOCK: Mutex<()> = Mutex::new(());

/// Places the library is looked for, in order.
pub fn candidate_paths() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(env) = std::env::var_os("DOCINDEX_PDFIUM") {
        let p = PathBuf::from(env);
        if p.is_dir() {
            out.push(p.join(LIBRARY_NAME));
        } else {
            out.push(p);
        }
    }
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        out.push(dir.join(LIBRARY_NAME));
        out.push(dir.join("pdfium").join(LIBRARY_NAME));
        if let Some(up) = dir.parent() {
            out.push(up.join("lib").join(LIBRARY_NAME));
            // Where the installed package keeps its resources: /usr/bin/docindex beside
            // /usr/lib/DocumentIndex/ (scripts/package.sh).
            out.push(
                up.join(INSTALLED_RESOURCES)
                    .join("pdfium")
                    .join(LIBRARY_NAME),
            );
        }
    }
    if let Some(data) = data_dir() {
        out.push(data.join("docindex").join("pdfium").join(LIBRARY_NAME));
    }
    if let Ok(cwd) = std::env::current_dir() {
        for dir in cwd.ancestors() {
            out.push(dir.join("pdfium").join(LIBRARY_NAME));
        }
    }
    // The repository this build came from, where set-up puts the library.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../pdfium");
    out.push(repo.join(LIBRARY_NAME));
    out
}

fn data_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
}

/// Find and bind pdfium once per process.
fn pdfium() -> Result<&'static Pdfium> {
    let bound = PDFIUM.get_or_init(|| {
        let candidates = candidate_paths();
        let mut tried = Vec::new();
        for path in candidates.iter().filter(|p| p.is_file()) {
            match Pdfium::bind_to_library(path) {
                Ok(bindings) => return Ok(Pdfium::new(bindings)),
                Err(e) => tried.push(format!("{} ({e:?})", path.display())),
            }
        }
        match Pdfium::bind_to_system_library() {
            Ok(bindings) => Ok(Pdfium::new(bindings)),
            Err(_) => {
                let looked: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
                let failed = if tried.is_empty() {
                    String::new()
                } else {
                    format!("; found but could not load: {}", tried.join(", "))
                };
                Err(format!(
                    "{LIBRARY_NAME} was not found (looked in {} and the system library path){failed}; {INSTALL_HINT}",
                    looked.join(", ")
                ))
            }
        }
    });
    bound
        .as_ref()
        .map_err(|e| IngestError::PdfiumMissing(e.clone()))
}

/// The pdfium-backed [`PdfReader`]. pdfium is bound on first use, so a machine without it
/// still indexes HTML and text, and each PDF then fails with the install hint.
#[derive(Debug, Clone, Copy, Default)]
pub struct PdfiumReader;

impl PdfiumReader {
    /// Bind pdfium now (once per process); fails with a message saying how to install it.
    pub fn load() -> Result<Self> {
        pdfium()?;
        Ok(PdfiumReader)
    }
}

fn open_error(e: PdfiumError) -> IngestError {
    match e {
        PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::PasswordError)
        | PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::SecurityError) => {
            IngestError::Encrypted
        }
        PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::FormatError) => {
            IngestError::CorruptPdf(
                "the file is damaged or truncated (pdfium could not parse it)".into(),
            )
        }
        other => IngestError::CorruptPdf(format!("pdfium could not open it ({other:?})")),
    }
}

impl PdfReader for PdfiumReader {
    fn read(
        &self,
        bytes: &[u8],
        limits: PdfLimits,
        on_page: &mut dyn FnMut(layout::PdfPage, u32) -> Result<()>,
    ) -> Result<PdfInfo> {
        with_document(bytes, |document| read_document(document, limits, on_page))
    }
}

fn read_document(
    document: &PdfDocument,
    limits: PdfLimits,
    on_page: &mut dyn FnMut(layout::PdfPage, u32) -> Result<()>,
) -> Result<PdfInfo> {
    let pages = document.pages();
    let page_count = u32::try_from(pages.len()).unwrap_or(0);
    if page_count == 0 {
        return Err(IngestError::CorruptPdf("the PDF has no pages".into()));
    }
    if page_count > limits.max_pages {
        return Err(IngestError::TooManyPages {
            pages: page_count,
            limit: limits.max_pages,
        });
    }
    for index in 0..pages.len() {
        let page = pages.get(index).map_err(|e| {
            IngestError::CorruptPdf(format!("page {} cannot be read ({e:?})", index + 1))
        })?;
        let extracted = extract_page(&page, index as u32 + 1);
        drop(page);
        on_page(extracted, page_count)?;
    }
    let (outline, broken) = outline(document, page_count);
    let title = document
        .metadata()
        .get(PdfDocumentMetadataTagType::Title)
        .map(|t| t.value().trim().to_string())
        .filter(|t| !t.is_empty());
    Ok(PdfInfo {
        page_count,
        title,
        outline,
        broken_outline_entries: broken,
    })
}

/// Each page's text exactly as pdfium reports it (no layout analysis): an independent view
/// used to check that a node's pages really hold its text.
pub fn raw_page_texts(bytes: &[u8]) -> Result<Vec<String>> {
    with_document(bytes, |document| {
        Ok(document
            .pages()
            .iter()
            .map(|page| page.text().map(|t| t.all()).unwrap_or_default())
            .collect())
    })
}

/// A page drawn by pdfium, and how its points map onto the picture's pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderedPage {
    /// 1-based page number.
    pub page: u32,
    pub page_count: u32,
    /// The picture, PNG-encoded (RGBA).
    pub png: Vec<u8>,
    pub width_px: u32,
    pub height_px: u32,
    /// Page points to picture pixels, as pdfium places them (rotation and crop box
    /// included): `x_px = a + b·x + c·y`, `y_px = d + e·x + f·y`, as `[a, b, c, d, e, f]`.
    pub transform: [f64; 6],
}

/// Draw page `page` (1-based) `width_px` pixels wide (height by the page's proportions).
pub fn render_page(bytes: &[u8], page: u32, width_px: u32) -> Result<RenderedPage> {
    const MAX_WIDTH: u32 = 6000;
    let width_px = width_px.clamp(16, MAX_WIDTH);
    with_document(bytes, |document| {
        let pages = document.pages();
        let page_count = u32::try_from(pages.len()).unwrap_or(0);
        if page == 0 || page > page_count {
            return Err(IngestError::CorruptPdf(format!(
                "there is no page {page}: the PDF has {page_count} pages"
            )));
        }
        let render_error = |e: PdfiumError| {
            IngestError::CorruptPdf(format!("page {page} cannot be drawn ({e:?})"))
        };
        let pdf_page = pages
            .get(i32::try_from(page - 1).map_err(|_| {
                IngestError::CorruptPdf(format!("page {page} is beyond what pdfium can address"))
            })?)
            .map_err(render_error)?;
        let config = PdfRenderConfig::new()
            .set_target_width(width_px as Pixels)
            .render_form_data(true)
            .render_annotations(true);
        let bitmap = pdf_page.render_with_config(&config).map_err(render_error)?;
        let (w, h) = (bitmap.width() as u32, bitmap.height() as u32);
        let rgba = bitmap.as_rgba_bytes();
        let png = encode_png(&rgba, w, h)
            .map_err(|e| IngestError::Internal(format!("PNG encoding of page {page}: {e}")))?;
        // Three points fix the affine map; far apart, so pixel rounding hardly shows.
        let at = |x: f32, y: f32| {
            pdf_page
                .points_to_pixels(PdfPoints::new(x), PdfPoints::new(y), &config)
                .map(|(px, py)| (f64::from(px), f64::from(py)))
                .map_err(render_error)
        };
        const FAR: f32 = 10_000.0;
        let origin = at(0.0, 0.0)?;
        let along_x = at(FAR, 0.0)?;
        let along_y = at(0.0, FAR)?;
        let far = f64::from(FAR);
        let transform = [
            origin.0,
            (along_x.0 - origin.0) / far,
            (along_y.0 - origin.0) / far,
            origin.1,
            (along_x.1 - origin.1) / far,
            (along_y.1 - origin.1) / far,
        ];
        Ok(RenderedPage {
            page,
            page_count,
            png,
            width_px: w,
            height_px: h,
            transform,
        })
    })
}

fn encode_png(
    rgba: &[u8],
    width: u32,
    height: u32,
) -> std::result::Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::with_capacity(rgba.len() / 8);
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        // Pages are drawn on demand while the user waits: speed over the last few percent.
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(rgba)?;
        writer.finish()?;
    }
    Ok(out)
}

/// Every character pdfium reports on page `page` (1-based), in its own order, with its box:
/// an independent view (no layout of ours) that tests hold the page view's boxes against.
pub fn raw_page_chars(bytes: &[u8], page: u32) -> Result<Vec<(char, Rect)>> {
    with_document(bytes, |document| {
        let index = i32::try_from(page.saturating_sub(1))
            .map_err(|_| IngestError::CorruptPdf(format!("no page {page}")))?;
        let pdf_page = document
            .pages()
            .get(index)
            .map_err(|e| IngestError::CorruptPdf(format!("page {page} cannot be read ({e:?})")))?;
        let Ok(text) = pdf_page.text() else {
            return Ok(Vec::new());
        };
        Ok(text
            .chars()
            .iter()
            .filter_map(|ch| {
                let c = ch.unicode_char()?;
                let bounds = ch.loose_bounds().ok()?;
                Some((c, rect_of(&bounds)))
            })
            .collect())
    })
}

/// Open `bytes` as a PDF under the process-wide pdfium lock and run `f` on it.
fn with_document<T>(bytes: &[u8], f: impl FnOnce(&PdfDocument) -> Result<T>) -> Result<T> {
    let pdfium = pdfium()?;
    let _guard = READ_LOCK
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let document = pdfium
        .load_pdf_from_byte_slice(bytes, None)
        .map_err(open_error)?;
    f(&document)
}

fn rect_of(r: &PdfRect) -> Rect {
    Rect::new(
        r.left().value,
        r.bottom().value,
        r.right().value,
        r.top().value,
    )
}

fn is_bold(ch: &PdfPageTextChar) -> bool {
    match ch.font_weight() {
        Some(PdfFontWeight::Custom(w)) if w >= 600 => return true,
        Some(PdfFontWeight::Weight600)
        | Some(PdfFontWeight::Weight700Bold)
        | Some(PdfFontWeight::Weight800)
        | Some(PdfFontWeight::Weight900) => return true,
        _ => {}
    }
    let name = ch.font_name().to_ascii_lowercase();
    name.contains("bold")
        || name.contains("black")
        || name.contains("heavy")
        || name.ends_with(",b")
}

fn extract_page(page: &PdfPage<'_>, number: u32) -> layout::PdfPage {
    let mut glyphs = Vec::new();
    if let Ok(text) = page.text() {
        let chars = text.chars();
        glyphs.reserve(chars.len().min(MAX_PAGE_GLYPHS));
        let mut space_before = false;
        // A page of millions of characters is read to the most a page can hold: the
        // assembler names the page in a warning.
        for ch in chars.iter() {
            if glyphs.len() >= MAX_PAGE_GLYPHS {
                break;
            }
            let Some(c) = ch.unicode_char() else {
                continue;
            };
            if c.is_whitespace() || ch.is_generated().unwrap_or(false) {
                space_before = true;
                continue;
            }
            let Ok(bounds) = ch.loose_bounds() else {
                continue;
            };
            let rect = rect_of(&bounds);
            let baseline = ch.origin_y().map(|y| y.value).unwrap_or(rect.bottom);
            glyphs.push(Glyph {
                ch: c,
                rect,
                baseline,
                font_size: ch.scaled_font_size().value,
                bold: is_bold(&ch),
                space_before: std::mem::take(&mut space_before),
            });
        }
    }
    let mut links = Vec::new();
    for link in page.links().iter() {
        let Ok(area) = link.rect() else {
            continue;
        };
        if let Some(target) = link_target(&link) {
            links.push(PdfLinkArea {
                rect: rect_of(&area),
                target,
            });
        }
    }
    let mut images = Vec::new();
    for object in page.objects().iter() {
        if object.object_type() == PdfPageObjectType::Image {
            if let Ok(bounds) = object.bounds() {
                images.push(rect_of(&bounds.to_rect()));
            }
        }
    }
    layout::PdfPage {
        number,
        width: page.width().value,
        height: page.height().value,
        glyphs,
        links,
        images,
    }
}

fn destination_target(dest: &PdfDestination) -> Option<PdfLinkTarget> {
    let page = u32::try_from(dest.page_index().ok()?).ok()? + 1;
    let top = match dest.view_settings().ok()? {
        PdfDestinationViewSettings::SpecificCoordinatesAndZoom(_, y, _) => y.map(|y| y.value),
        PdfDestinationViewSettings::FitPageHorizontallyToWindow(y)
        | PdfDestinationViewSettings::FitBoundsHorizontallyToWindow(y) => y.map(|y| y.value),
        PdfDestinationViewSettings::FitPageToRectangle(r) => Some(r.top().value),
        _ => None,
    };
    Some(PdfLinkTarget::Page { page, top })
}

fn action_target(action: &PdfAction) -> Option<PdfLinkTarget> {
    match action {
        PdfAction::Uri(uri) => uri.uri().ok().map(PdfLinkTarget::Uri),
        PdfAction::LocalDestination(local) => local
            .destination()
            .ok()
            .and_then(|d| destination_target(&d)),
        _ => None,
    }
}

fn link_target(link: &PdfLink) -> Option<PdfLinkTarget> {
    if let Some(dest) = link.destination() {
        return destination_target(&dest);
    }
    link.action().and_then(|a| action_target(&a))
}

/// The outline, depth first, bounded against cyclic or enormous bookmark trees. Entries
/// whose destination is missing or beyond the last page are counted as broken.
fn outline(document: &PdfDocument, page_count: u32) -> (Vec<PdfOutlineEntry>, usize) {
    const MAX_ENTRIES: usize = 20_000;
    const MAX_DEPTH: u32 = 16;
    let mut out = Vec::new();
    let mut broken = 0usize;
    let mut stack: Vec<(PdfBookmark, u32)> = Vec::new();
    if let Some(root) = document.bookmarks().root() {
        stack.push((root, 0));
    }
    let mut visited = 0usize;
    // A bookmark seen before (its title and target) is a loop in the tree (a child or a
    // next sibling that points back): it is counted broken and not followed, so a cyclic
    // outline gives each entry once, not a chain of nested copies.
    let mut seen: std::collections::HashSet<(String, String)> = std::collections::HashSet::new();
    while let Some((bookmark, level)) = stack.pop() {
        visited += 1;
        if visited > MAX_ENTRIES {
            broken += stack.len() + 1;
            break;
        }
        let title = bookmark.title().unwrap_or_default().trim().to_string();
        let target = bookmark
            .destination()
            .and_then(|d| destination_target(&d))
            .or_else(|| bookmark.action().and_then(|a| action_target(&a)));
        if !seen.insert((title.clone(), format!("{target:?}"))) {
            broken += 1;
            continue;
        }
        if let Some(next) = bookmark.next_sibling() {
            stack.push((next, level));
        }
        if level < MAX_DEPTH {
            if let Some(child) = bookmark.first_child() {
                stack.push((child, level + 1));
            }
        }
        match target {
            Some(PdfLinkTarget::Page { page, top }) if page <= page_count && !title.is_empty() => {
                out.push(PdfOutlineEntry {
                    title,
                    level,
                    page: Some(page),
                    top,
                })
            }
            _ => broken += 1,
        }
    }
    (out, broken)
}
