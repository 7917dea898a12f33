//! The DocumentIndex desktop app: a Tauri 2 window over the library in
//! `$DOCINDEX_LIBRARY` (or the OS data folder), with the web UI from `ui/`.

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod commands;
mod desktop;
mod error;
mod settings;
mod views;

use desktop::Desktop;

/// Log to stderr and to a file rotated daily in `<library>/logs/` (shown in Settings), at
/// `DOCINDEX_LOG` (default: warnings, and each file's indexing stages).
fn init_logging(dir: &std::path::Path) -> tracing_appender::non_blocking::WorkerGuard {
    use tracing_subscriber::prelude::*;
    let filter = tracing_subscriber::EnvFilter::try_from_env("DOCINDEX_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,docindex_app=info"));
    let _ = std::fs::create_dir_all(desktop::log_dir(dir));
    let files = tracing_appender::rolling::Builder::new()
        .rotation(tracing_appender::rolling::Rotation::DAILY)
        .filename_prefix("docindex")
        .filename_suffix("log")
        .max_log_files(7)
        .build(desktop::log_dir(dir));
    let (writer, guard) = match files {
        Ok(appender) => tracing_appender::non_blocking(appender),
        Err(e) => {
            eprintln!("docindex-desktop: no log file ({e}); logging to stderr only");
            tracing_appender::non_blocking(std::io::sink())
        }
    };
    tracing_subscriber::registry()
        .with(filter)
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(
            tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_writer(writer),
        )
        .init();
    guard
}

fn main() {
    let dir = docindex_app::default_library_dir();
    let _log = init_logging(&dir);
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
            commands::page_image,
            commands::span_boxes,
            commands::page_char_at,
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
