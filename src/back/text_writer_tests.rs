//! What the GLSL and HLSL writers must do alike, checked on both.

use crate::back::test_support::analyzed;
use crate::back::{glsl, hlsl, write_text};
use crate::diag::Diagnostics;

const SOURCE: &str = "
    override gain: f32 = 2.0;
    @group(0) @binding(0) var<storage, read_write> out_data: array<f32>;
    @compute @workgroup_size(1) fn main() { out_data[0] = gain; }";

/// Each text writer's errors for `SOURCE` with this entry point and these
/// override values (`None`: it wrote the module).
fn errors(
    entry_point: Option<&str>,
    overrides: &[(&str, f64)],
) -> Vec<(&'static str, Diagnostics)> {
    let (parsed, info, contract) = analyzed(SOURCE);
    let pipeline = crate::back::Pipeline {
        entry_point: entry_point.map(str::to_string),
        overrides: overrides.iter().map(|&(n, v)| (n.to_string(), v)).collect(),
    };
    let (for_glsl, for_hlsl) = (glsl::GlslOptions::default(), hlsl::HlslOptions::default());
    let results = [
        (
            "GLSL",
            write_text(&parsed, &info, &contract, &pipeline, &for_glsl).err(),
        ),
        (
            "HLSL",
            write_text(&parsed, &info, &contract, &pipeline, &for_hlsl).err(),
        ),
    ];
    results
        .into_iter()
        .filter_map(|(w, e)| Some((w, e?)))
        .collect()
}

#[test]
fn both_write_the_module_as_it_is() {
    assert!(errors(None, &[]).is_empty());
    assert!(errors(Some("main"), &[("gain", 3.0)]).is_empty());
}

#[test]
fn both_refuse_an_unknown_override() {
    let found = errors(None, &[("nope", 1.0)]);
    assert_eq!(found.len(), 2, "{found:?}");
    for (writer, e) in found {
        assert!(
            e.0[0].message.contains("no override named `nope`"),
            "{writer}: {e:?}"
        );
    }
}

#[test]
fn both_refuse_an_unknown_entry_point_and_name_the_ones_there_are() {
    let found = errors(Some("other"), &[]);
    assert_eq!(found.len(), 2, "{found:?}");
    for (writer, e) in found {
        assert!(
            e.0[0].message.contains("no entry point named `other`"),
            "{writer}: {e:?}"
        );
        assert!(
            e.0[0].notes.iter().any(|n| n.contains("`main`")),
            "{writer}: {e:?}"
        );
    }
}

/// A ray query is refused by both writers, and so is the result of its
/// `rayQueryProceed` where an expression uses it: the statement results
/// neither writer writes reach each expression match's last arm.
#[test]
fn both_refuse_a_ray_query_and_its_result() {
    const RAY_QUERY: &str = "
        enable wgpu_ray_query;
        @group(0) @binding(0) var acc: acceleration_structure;
        @group(0) @binding(1) var<storage, read_write> o: array<u32>;
        @compute @workgroup_size(1) fn main() {
            var rq: ray_query;
            rayQueryInitialize(&rq, acc, RayDesc(0u, 255u, 0.1, 100.0, vec3<f32>(0.0), vec3<f32>(0.0, 0.0, 1.0)));
            let more = rayQueryProceed(&rq);
            o[0] = select(0u, 1u, more);
        }";
    let (parsed, info, contract) = analyzed(RAY_QUERY);
    let pipeline = crate::back::Pipeline::default();
    let (for_glsl, for_hlsl) = (glsl::GlslOptions::default(), hlsl::HlslOptions::default());
    let found = [
        write_text(&parsed, &info, &contract, &pipeline, &for_glsl).err(),
        write_text(&parsed, &info, &contract, &pipeline, &for_hlsl).err(),
    ];
    for (writer, e) in ["GLSL", "HLSL"].into_iter().zip(found) {
        let e = e.unwrap_or_else(|| panic!("{writer} wrote a ray query"));
        let result =
            e.0.iter()
                .find(|d| d.message.contains("this result is not supported"))
                .unwrap_or_else(|| panic!("{writer}: no error for the result: {e:?}"));
        let at = result.labels.first().map(|l| l.span.clone());
        let call = "rayQueryProceed";
        let start = RAY_QUERY.find(call).unwrap();
        assert_eq!(
            at,
            Some(start..start + call.len()),
            "{writer}: the result's error is not at {call}"
        );
    }
}
