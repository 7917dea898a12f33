//! Builds the Tauri context from the repository's root `tauri.conf.json`.

fn main() {
    // The web UI is built by `npm run build` in ui/ (scripts/setup.sh does it); the app
    // embeds ui/dist, so a new build of the UI must rebuild the shell.
    println!("cargo:rerun-if-changed=../ui/dist");
    println!("cargo:rerun-if-changed=../tauri.conf.json");
    if !std::path::Path::new("../ui/dist/index.html").exists() {
        println!(
            "cargo:warning=ui/dist is missing: run `npm ci && npm run build` in ui/ (scripts/setup.sh does)"
        );
    }
    tauri_build::try_build(tauri_build::Attributes::new().config_path("../tauri.conf.json"))
        .unwrap_or_else(|e| panic!("tauri build: {e:#}"));
}
