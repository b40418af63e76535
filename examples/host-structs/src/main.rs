//! Fills the uniform buffer of `shaders/lights.wgsl` through the structs
//! that `build.rs` generated, and prints its bytes: the bytes the shader
//! reads, padding included (every padding byte is a named, zeroed field).

#[allow(dead_code)]
mod lights {
    include!(concat!(env!("OUT_DIR"), "/lights.rs"));
}

use lights::{Frame, Light};

fn main() {
    let mut frame = Frame::ZEROED;
    frame.view_proj = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    frame.light_count = 2;
    frame.lights[0] = Light {
        position: [1.0, 2.0, 3.0],
        intensity: 4.0,
        color: [1.0, 0.5, 0.25],
        ..Light::ZEROED
    };
    frame.lights[1].position = [-1.0, 0.0, 0.0];
    frame.lights[1].intensity = 0.5;
    frame.exposure = 1.5;

    // `Frame` is `#[repr(C)]` with no implicit padding, so viewing it as
    // bytes is sound (with `--rust-derive bytemuck`: `bytemuck::bytes_of`).
    let bytes: &[u8] = unsafe {
        std::slice::from_raw_parts(
            (&frame as *const Frame).cast::<u8>(),
            std::mem::size_of::<Frame>(),
        )
    };
    assert_eq!(bytes.len() as u64, lights::FRAME_MIN_BINDING_SIZE);
    println!(
        "frame: group {} binding {}, {} bytes (lights[1].intensity at byte {})",
        lights::FRAME_GROUP,
        lights::FRAME_BINDING,
        bytes.len(),
        std::mem::offset_of!(Frame, lights) + std::mem::size_of::<Light>() + std::mem::offset_of!(Light, intensity),
    );
    for (row, chunk) in bytes.chunks(16).enumerate() {
        let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
        println!("{:4}: {}", row * 16, hex.join(" "));
    }
    println!(
        "brightness: group {} binding {}, {} bytes per element",
        lights::BRIGHTNESS_GROUP,
        lights::BRIGHTNESS_BINDING,
        lights::BRIGHTNESS_STRIDE
    );
}
