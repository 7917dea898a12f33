//! The tool contract agents rely on, as `tools/list` shows it: a change to a name, a
//! description or a schema shows up as a snapshot diff to review.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_app::Library;
use docindex_core::IndexSettings;
use docindex_mcp::DocIndexServer;

#[test]
fn the_tool_list_with_its_schemas_is_the_reviewed_contract() {
    let dir = tempfile::tempdir().unwrap();
    let library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let mut tools = DocIndexServer::new(library).tools();
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    insta::assert_json_snapshot!(tools);
}
