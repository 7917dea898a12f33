//! Retrying the LLM stages a provider failed, on a stored document: summaries, the profile
//! and cross-references run again from the stored text and tree. Structure refinement
//! works on the parsed blocks, which are not stored, so it needs the source file again.

use super::{Enhancer, LlmOptions};
use crate::charmap::CharMap;
use crate::error::Result;
use crate::llm::Llm;
use crate::model::{DocumentIndex, FailedStage, LlmEnhancement, LlmStage, Span};
use crate::progress::ProgressSink;
use serde::Serialize;

/// What a retry did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RetryOutcome {
    /// Stages that succeeded this time.
    pub retried: Vec<LlmStage>,
    /// Stages still failed (with the provider's reason), or that need the source file.
    pub still_failed: Vec<FailedStage>,
}

/// Run again the stages `doc`'s last enhancement failed; the document's warnings and
/// enhancement report are updated to match.
pub fn retry_failed_stages(
    doc: &mut DocumentIndex,
    llm: &dyn Llm,
    options: LlmOptions,
    progress: &mut dyn ProgressSink,
) -> Result<RetryOutcome> {
    let earlier = doc.enhancement.clone().unwrap_or_else(|| LlmEnhancement {
        model: llm.model().to_string(),
        ..LlmEnhancement::default()
    });
    let failed: Vec<LlmStage> = earlier.stages_failed.iter().map(|f| f.stage).collect();
    let mut enhancer = Enhancer::new(llm, options);
    enhancer.resume(&earlier);
    let mut retried = Vec::new();
    let paths: Vec<String> = doc.nodes.iter().map(|n| doc.path_of(&n.node_id)).collect();
    let name = doc.doc_name.clone();
    for stage in failed {
        let ok = match stage {
            // The parsed blocks are gone; only re-indexing the source can refine them.
            LlmStage::Structure => false,
            LlmStage::Summaries => {
                let map = CharMap::new(&doc.text);
                let own: Vec<String> = doc
                    .nodes
                    .iter()
                    .map(|n| {
                        let end = n
                            .children
                            .first()
                            .and_then(|c| doc.node(c))
                            .map_or(n.span.end_char, |c| c.span.start_char);
                        map.slice(Span {
                            start_char: n.span.start_char,
                            end_char: end.max(n.span.start_char),
                        })
                        .to_string()
                    })
                    .collect();
                let own: Vec<&str> = own.iter().map(String::as_str).collect();
                let result = enhancer.summarize(&mut doc.nodes, &own, &paths, &name, progress);
                enhancer.tolerate(stage, result)?.is_some()
            }
            LlmStage::Profile => {
                let result = enhancer.profile(
                    &doc.text,
                    &name,
                    doc.doc_type,
                    &mut doc.metadata,
                    &doc.nodes,
                    progress,
                );
                match enhancer.tolerate(stage, result)? {
                    Some(description) => {
                        if description.is_some() {
                            doc.description = description;
                        }
                        true
                    }
                    None => false,
                }
            }
            LlmStage::CrossReferences => {
                let chars: Vec<char> = doc.text.chars().collect();
                let result = enhancer.resolve_cross_references(
                    &chars,
                    &mut doc.cross_refs,
                    &doc.nodes,
                    &paths,
                    &name,
                    progress,
                );
                enhancer.tolerate(stage, result)?.is_some()
            }
        };
        if ok {
            enhancer.stage_done(stage);
            retried.push(stage);
        }
    }
    let report = enhancer.finish();
    let old_warnings: Vec<String> = earlier
        .stages_failed
        .iter()
        .map(|f| f.warning(&name))
        .collect();
    doc.warnings.retain(|w| !old_warnings.contains(w));
    doc.warnings
        .extend(report.stages_failed.iter().map(|f| f.warning(&name)));
    if report.stages_failed.is_empty() {
        if let Some(key) = doc
            .settings_key
            .strip_suffix(crate::pipeline::INCOMPLETE_SUFFIX)
        {
            doc.settings_key = key.to_string();
        }
    }
    let still_failed = report.stages_failed.clone();
    doc.enhancement = Some(report);
    Ok(RetryOutcome {
        retried,
        still_failed,
    })
}
