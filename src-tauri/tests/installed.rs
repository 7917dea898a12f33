//! The installed package's app in a real window: `scripts/package.sh --check` installs the
//! .deb, then runs this test with `DOCINDEX_INSTALLED_APP` naming the installed binary. The
//! app must open on its first screen with nothing from the build tree: pdfium, the model
//! and the UI come from the package.

mod window;

use std::path::PathBuf;
use window::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the installed package: scripts/package.sh --check runs it"]
async fn installed_app_opens_on_its_first_screen() -> TestResult {
    let app = PathBuf::from(
        std::env::var_os("DOCINDEX_INSTALLED_APP")
            .ok_or("DOCINDEX_INSTALLED_APP names the installed app's binary")?,
    );
    let work = tempfile::tempdir()?;
    let (_driver, client) = launch_app(&app, &work.path().join("library")).await?;
    let title = client.title().await?;
    assert_eq!(title, "DocumentIndex");
    // The first screen of an empty library offers the bundled sample.
    let sample = wait_for(&client, "[data-testid=index-sample]").await?;
    assert!(sample.is_displayed().await?);
    screenshot(&client, "installed-first-screen.png").await?;
    // The sample indexes with what the package carries (the embedding model among them).
    sample.click().await?;
    wait_for(&client, "[data-testid=doc-list] button.doc").await?;
    wait_until(
        &client,
        "the sample's embeddings",
        "const s = document.querySelector('[data-testid=doc-status]'); return s && s.textContent.includes('searchable')",
    )
    .await?;
    screenshot(&client, "installed-sample-indexed.png").await?;
    close(client).await?;
    Ok(())
}
