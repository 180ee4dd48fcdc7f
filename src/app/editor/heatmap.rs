//! The sight analysis run in the background, and its heatmap drawn over the table.

use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

use super::{Editor, HeatmapView};
use crate::app::screens::Screen;
use crate::design::mirror::unmatched;
use crate::design::picture;

/// Collects a finished analysis, and redraws the heatmap when it or the view changes.
pub(super) fn poll_analysis(
    mut editor: ResMut<Editor>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut commands: Commands,
    overlay: Query<Entity, With<HeatmapOverlay>>,
    mut last: Local<Option<(HeatmapView, usize)>>,
) {
    if editor
        .running
        .as_ref()
        .is_some_and(|r| r.handle.is_finished())
    {
        let run = editor.running.take().expect("checked");
        match run.handle.join() {
            Ok(mut a) => {
                a.asymmetry.unmatched = unmatched(&editor.design.layout);
                editor.log.push(format!(
                    "analysed: P1 sees {:.0}%, P2 {:.0}% (infantry); {} open lanes; asymmetry {:.3}",
                    a.zones.first().map_or(0.0, |z| z.infantry_visible_share * 100.0),
                    a.zones.get(1).map_or(0.0, |z| z.infantry_visible_share * 100.0),
                    a.lanes.count,
                    a.asymmetry.score
                ));
                editor.analysis = Some((a, run.input));
                if editor.heatmap == HeatmapView::Off {
                    editor.heatmap = HeatmapView::Infantry;
                }
                *last = None;
            }
            Err(_) => editor.log.push("the analysis failed".into()),
        }
    }
    let generation = editor
        .analysis
        .as_ref()
        .map_or(0, |(a, _)| a.grid.0 * 7 + a.lanes.lines);
    let key = (editor.heatmap, generation);
    // The overlay is despawned on leaving the editor: drawn again on return.
    let drawn = editor.heatmap == HeatmapView::Off || !overlay.is_empty();
    if *last == Some(key) && drawn {
        return;
    }
    *last = Some(key);
    for e in &overlay {
        commands.entity(e).despawn();
    }
    let kind = match editor.heatmap {
        HeatmapView::Off => return,
        HeatmapView::Infantry => 0,
        HeatmapView::Vehicle => 1,
    };
    let Some((a, _)) = &editor.analysis else {
        return;
    };
    let Some(first) = a.maps.first() else { return };
    let (cols, rows) = (first[kind].cols, first[kind].rows);
    let mut data = Vec::with_capacity(cols * rows * 4);
    for r in (0..rows).rev() {
        for c in 0..cols {
            let i = r * cols + c;
            let seen = |z: usize| a.maps.get(z).is_some_and(|m| m[kind].visible[i]);
            let class = picture::seen_class(seen(0), seen(1));
            let [red, green, blue] = picture::SEEN_COLOURS[class];
            data.extend([red, green, blue, if class == 0 { 200 } else { 150 }]);
        }
    }
    let mut image = Image::new(
        Extent3d {
            width: cols as u32,
            height: rows as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::nearest();
    let material = materials.add(StandardMaterial {
        base_color_texture: Some(images.add(image)),
        unlit: true,
        alpha_mode: AlphaMode::Blend,
        ..default()
    });
    let (w, d) = (
        crate::rules::constants::BOARD_WIDTH_INCHES,
        crate::rules::constants::BOARD_DEPTH_INCHES,
    );
    commands.spawn((
        HeatmapOverlay,
        DespawnOnExit(Screen::Editor),
        Mesh3d(meshes.add(Rectangle::new(w, d))),
        MeshMaterial3d(material),
        Transform::from_xyz(w / 2.0, d / 2.0, 0.03),
    ));
}

/// The heatmap drawn over the table (in the editor only: despawned on leaving it).
#[derive(Component)]
pub struct HeatmapOverlay;
