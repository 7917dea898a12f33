//! Extending a dense index file by a file of the documents embedded since it was written.
//! Adding one filing to a library of 10,000 wrote all 3.4 million vectors again (about a
//! minute, 2.4 s at 1,000 filings); now it writes the vectors added since the whole file.

use super::build::{write_streamed, Scope};
use super::{DenseIndex, Stamp};
use crate::{Result, SqliteStore};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The file of what was added holds at most one document for every N the whole file
/// holds; past that the whole file is written again. Each addition writes the added file
/// again whole, so the cost of a long run of single additions stays a share of one whole
/// write per N of them, and a search never scans two large files.
const ADDED_SHARE: usize = 4;

/// Where the file of the documents added since the whole file at `whole` is kept.
pub(super) fn added_path(whole: &Path) -> PathBuf {
    whole.with_extension("added.bin")
}

/// Deletes the file of what was added to the whole file at `whole` (written again, it holds
/// all of it). Another process may still map the old one: its pages stay until it lets go.
pub(super) fn discard(whole: &Path) {
    let path = added_path(whole);
    if let Err(e) = std::fs::remove_file(&path) {
        if e.kind() != std::io::ErrorKind::NotFound {
            tracing::debug!("{}: not deleted: {e}", path.display());
        }
    }
}

/// Extends `whole` (the file at `path`, made as `stamp` says) to `generation` by the file
/// of what was added since, when that file is of this generation and was made to extend
/// this very file, with no vector removed in between; whether it did.
pub(super) fn attach_added(
    whole: &mut DenseIndex,
    stamp: Stamp,
    path: &Path,
    generation: i64,
) -> bool {
    let Some((added, added_stamp)) = DenseIndex::open_stamped(&added_path(path)).ok().flatten()
    else {
        return false;
    };
    let extends = stamp.removals.is_some()
        && added_stamp.generation == generation
        && added_stamp.base == Some(stamp.generation)
        && added_stamp.removals == stamp.removals
        && (added.dims == whole.dims || added.head.count == 0);
    if extends {
        whole.added = Some(Box::new(added));
    }
    extends
}

/// The index of the store's vectors as `whole` (the file at `path`, as `stamp` says it
/// was made) and a new file of the documents embedded since. `None` when the whole file
/// cannot be extended (a vector was removed since it was written, it is from an older
/// version, or as much was added as [`ADDED_SHARE`] allows) or the new file cannot be
/// written: the caller writes the whole file again. The error is the store's.
pub(super) fn extend(
    store: &SqliteStore,
    model: &str,
    path: &Path,
    mut whole: DenseIndex,
    stamp: Stamp,
) -> Result<Option<DenseIndex>> {
    let Some(removals) = stamp.removals else {
        return Ok(None);
    };
    let target = added_path(path);
    // Another process may be writing it too: written beside, then renamed.
    let partial = target.with_extension(format!("partial-{}", std::process::id()));
    let written = store.in_snapshot(|| {
        let held: HashSet<&str> = whole.docs.iter().map(String::as_str).collect();
        if store.vector_removals()? != removals {
            return Ok(None);
        }
        let docs: Vec<String> = store
            .docs_with_vectors(model)?
            .into_iter()
            .filter(|doc| !held.contains(doc.as_str()))
            .collect();
        if docs.len() * ADDED_SHARE > whole.docs.len() {
            return Ok(None);
        }
        let scope = Scope {
            docs,
            base: stamp.generation,
        };
        write_streamed(store, model, &partial, Some(&scope)).map(Some)
    });
    let generation = match written {
        Ok(Some(Ok(generation))) => std::fs::rename(&partial, &target).map(|()| generation),
        Ok(Some(Err(e))) => Err(e),
        Ok(None) => {
            let _ = std::fs::remove_file(&partial);
            return Ok(None);
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    match generation {
        Ok(generation) => Ok(attach_added(&mut whole, stamp, path, generation).then_some(whole)),
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            tracing::debug!("{}: not written: {e}", target.display());
            Ok(None)
        }
    }
}
