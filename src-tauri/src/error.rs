//! Errors of the desktop shell, sent to the web UI as `{ message, fault }`.

use docindex_app::AppError;
use docindex_core::Fault;
use serde::Serialize;
use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum DesktopError {
    #[error(transparent)]
    App(#[from] AppError),
    #[error("{path}: {reason}")]
    Settings { path: PathBuf, reason: String },
    #[error("OS keychain: {0}")]
    Keychain(String),
    #[error("{path}: cannot write the export: {source}")]
    Export {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("another indexing job is running; wait for it or cancel it")]
    Busy,
    #[error("internal error: {0}")]
    Internal(String),
}

impl DesktopError {
    pub fn fault(&self) -> Fault {
        match self {
            DesktopError::App(e) => e.fault(),
            DesktopError::Settings { .. } | DesktopError::Busy => Fault::User,
            DesktopError::Keychain(_) | DesktopError::Export { .. } => Fault::Runtime,
            DesktopError::Internal(_) => Fault::Bug,
        }
    }
}

/// What a failed command returns to the UI.
impl Serialize for DesktopError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("DesktopError", 2)?;
        s.serialize_field("message", &self.to_string())?;
        s.serialize_field("fault", &format!("{:?}", self.fault()).to_lowercase())?;
        s.end()
    }
}
