//! The layout file on disk, watched: loaded through Bevy's asset server from the `scenes`
//! asset source, so a change made in another program reloads into the editor.

use std::path::Path;

use bevy::asset::io::Reader;
use bevy::asset::{AssetLoader, LoadContext};
use bevy::prelude::*;

use super::Editor;
use crate::data::layout::LayoutFile;

/// Asset source id of the scenes folder, watched for changes.
pub const SCENES_SOURCE: &str = "scenes";

/// A layout file's text, loaded through the asset server so that changes on disk are seen
/// (hot reload).
#[derive(Asset, TypePath, Debug)]
pub struct LayoutText(pub String);

/// Loads [`LayoutText`].
#[derive(Default, TypePath)]
pub struct LayoutTextLoader;

impl AssetLoader for LayoutTextLoader {
    type Asset = LayoutText;
    type Settings = ();
    type Error = std::io::Error;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _: &Self::Settings,
        _: &mut LoadContext<'_>,
    ) -> Result<LayoutText, std::io::Error> {
        use bevy::tasks::futures_lite::AsyncReadExt;
        let mut bytes = Vec::new();
        // At most one byte past the limit is read, so a huge or endless file stays bounded.
        reader
            .take(crate::data::source::MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .await?;
        if bytes.len() as u64 > crate::data::source::MAX_FILE_BYTES {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "the layout is over {} bytes, the limit for data files",
                    crate::data::source::MAX_FILE_BYTES
                ),
            ));
        }
        String::from_utf8(bytes)
            .map(LayoutText)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// Registers the scenes folder as a watched asset source. Must run before the asset plugin
/// (before `DefaultPlugins`).
pub fn register_source(app: &mut App, scenes_dir: &Path) {
    let dir = std::fs::canonicalize(scenes_dir).unwrap_or_else(|_| scenes_dir.to_path_buf());
    app.register_asset_source(
        SCENES_SOURCE,
        bevy::asset::io::AssetSourceBuilder::platform_default(&dir.to_string_lossy(), None),
    );
}

/// Loads the watched layout file through the asset server and applies changes made on disk.
pub(super) fn watch(
    mut editor: ResMut<Editor>,
    server: Res<AssetServer>,
    texts: Res<Assets<LayoutText>>,
    mut events: MessageReader<AssetEvent<LayoutText>>,
) {
    if editor.handle.is_none()
        && let Some(path) = editor.watched.clone()
    {
        let root = std::fs::canonicalize(&editor.scenes_dir).unwrap_or_default();
        let file = std::fs::canonicalize(&path).unwrap_or_default();
        if let Ok(rel) = file.strip_prefix(&root) {
            let asset = format!(
                "{SCENES_SOURCE}://{}",
                rel.to_string_lossy().replace('\\', "/")
            );
            editor.handle = Some(server.load(asset));
        }
    }
    let Some(handle) = editor.handle.clone() else {
        return;
    };
    for event in events.read() {
        if !event.is_modified(handle.id()) {
            continue;
        }
        let (Some(text), Some(path)) = (texts.get(&handle), editor.watched.clone()) else {
            continue;
        };
        match crate::data::source::parse::<LayoutFile>(&path, &text.0) {
            Ok(layout) => {
                let problems = crate::data::check::layout(&path, &layout);
                if let Some(first) = problems.first() {
                    editor.log.push(format!("not reloaded: {first}"));
                } else if layout != editor.design.layout {
                    editor.edit(|d| d.layout = layout);
                    let line = format!("reloaded {} (changed on disk)", path.display());
                    info!("{line}");
                    editor.log.push(line);
                }
            }
            Err(e) => editor.log.push(format!("not reloaded: {e}")),
        }
    }
}
