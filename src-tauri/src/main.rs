//! The DocumentIndex desktop app: a Tauri 2 window over the library in
//! `$DOCINDEX_LIBRARY` (or the OS data folder), with the web UI from `ui/`.

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod commands;
mod desktop;
mod error;
mod settings;
mod views;

use desktop::Desktop;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::new().filter_or("DOCINDEX_LOG", "warn")).init();
    let dir = docindex_app::default_library_dir();
    let desktop = match Desktop::open(&dir) {
        Ok(desktop) => desktop,
        Err(e) => {
            eprintln!(
                "docindex-desktop: cannot open the library in {}: {e}",
                dir.display()
            );
            std::process::exit(1);
        }
    };
    let app = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .manage(desktop)
        .invoke_handler(tauri::generate_handler![
            commands::list_documents,
            commands::remove_document,
            commands::enhance_document,
            commands::open_document,
            commands::sample_path,
            commands::index_files,
            commands::cancel_indexing,
            commands::ask,
            commands::provenance,
            commands::export_report,
            commands::saved_list,
            commands::reopen_saved,
            commands::get_settings,
            commands::save_settings,
        ])
        .run(tauri::generate_context!("../tauri.conf.json"));
    if let Err(e) = app {
        eprintln!("docindex-desktop: {e}");
        std::process::exit(1);
    }
}
