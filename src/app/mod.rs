use bevy::prelude::*; pub fn run(_a: crate::cli::PlayArgs) -> std::process::ExitCode { let _ = App::new(); std::process::ExitCode::SUCCESS }
