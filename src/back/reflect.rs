//! `--target reflect`: JSON with every global and every type's contract
//! layout. Key order is stable; the format is documented in docs/reflect.md.

use crate::back::common::Modules;
use crate::back::hlsl::{HlslRegister, RegisterMode};
use crate::back::listing::{global_type_text, layout_type_name, member_type_text, scanned_struct};
use crate::front::Parsed;
use crate::layout::{Layout, LayoutKind, LayoutModule, PaddingReason, Slot, StructLayout};
use serde_json::{json, Map, Value};

/// The version of the JSON format; bumped on incompatible changes.
pub const FORMAT_VERSION: u64 = 1;

pub fn write(parsed: &Parsed, info: &naga::valid::ModuleInfo, contract: &LayoutModule) -> String {
    write_modules(&Modules::new(parsed, info, contract, &Default::default()))
}

/// [`write()`] from the translation's modules (made with no override
/// values: the defaults are baked): the layouts from the contract, the
/// bindings and registers from the binding stage, each assigned once.
pub(crate) fn write_modules(modules: &Modules<'_>) -> String {
    let (parsed, contract) = (modules.parsed, modules.source().contract);
    let globals: Vec<Value> = modules
        .source()
        .order()
        .iter()
        .map(|&handle| {
            let var = &parsed.module.global_variables[handle];
            global(parsed, contract, handle, var)
        })
        .collect();
    let types: Vec<Value> = contract
        .structs
        .values()
        .map(|s| struct_value(parsed, contract, s))
        .collect();
    let glsl: Map<String, Value> = [
        crate::back::glsl::Dialect::Vulkan450,
        crate::back::glsl::Dialect::Gl450,
    ]
    .into_iter()
    .map(|d| (d.name().to_string(), glsl_bindings(modules, d)))
    .collect();
    let (hlsl, compact) = hlsl_registers(modules);
    let parameters: Vec<Value> = parsed
        .annotations
        .params
        .iter()
        .map(|p| parameter(parsed, p, compact.as_deref()))
        .collect();
    let root = json!({
        "version": FORMAT_VERSION,
        "globals": globals,
        "parameters": parameters,
        "types": types,
        "glsl": glsl,
        "hlsl": hlsl,
    });
    // Serializing a `Value` into a String cannot fail; fall back to the
    // compact form rather than panic if it ever did.
    let mut text = serde_json::to_string_pretty(&root).unwrap_or_else(|_| root.to_string());
    text.push('\n');
    text
}

/// The first error of a target that cannot be written.
fn error_value(e: &crate::diag::Diagnostics) -> Value {
    let first = e.iter().find(|d| d.is_error()).map(|d| d.message.clone());
    json!({ "error": first.unwrap_or_default() })
}

/// Where the GLSL target of `dialect` binds every resource, per output
/// file (entry point); `{"error": ...}` when the module cannot be written
/// in that dialect (its layouts, types or bindings; the bindings come from
/// the binding stage, not from writing the files).
fn glsl_bindings(modules: &Modules<'_>, dialect: crate::back::glsl::Dialect) -> Value {
    let options = crate::back::glsl::GlslOptions {
        dialect,
        ..Default::default()
    };
    let files = match crate::back::glsl::decl::module_bindings(modules, &options) {
        Ok(files) => files,
        Err(e) => return error_value(&e),
    };
    let files: Vec<Value> = files
        .iter()
        .map(|f| {
            let bindings: Vec<Value> = f
                .bindings
                .iter()
                .map(|b| {
                    let mut v = json!({
                        "global": b.global,
                        "glsl_name": b.glsl_name,
                        "kind": b.kind,
                        "set": b.set,
                        "binding": b.binding,
                    });
                    // Only where it holds: every other block is members.
                    if b.words {
                        v["words"] = json!(true);
                    }
                    v
                })
                .collect();
            let combined: Vec<Value> = f
                .combined
                .iter()
                .map(|c| {
                    json!({
                        "name": c.name,
                        "texture": c.texture,
                        "sampler": c.sampler,
                        "binding": c.binding,
                    })
                })
                .collect();
            json!({
                "entry_point": f.entry_point,
                "file": format!("{}.{}", f.entry_point, crate::back::glsl::stage_extension(f.stage)),
                "bindings": bindings,
                "combined_samplers": combined,
            })
        })
        .collect();
    json!({ "files": files })
}

/// Where the HLSL target binds every resource, per register mode (the
/// default options: the shader model the module needs), with its entry
/// points; `{"error": ...}` for a
/// mode in which the module cannot be written as HLSL. The registers come
/// from the binding stage, not from writing the file; the module is
/// resolved once for both modes. Also the registers of the compact mode.
fn hlsl_registers(modules: &Modules<'_>) -> (Map<String, Value>, Option<Vec<HlslRegister>>) {
    let options = crate::back::hlsl::HlslOptions::default();
    let found = crate::back::hlsl::decl::module_registers(modules, &options, &RegisterMode::ALL);
    let mut compact = None;
    let mut values = Map::new();
    for (i, mode) in RegisterMode::ALL.into_iter().enumerate() {
        let in_mode = found.as_ref().and_then(|(entry_points, model, modes)| {
            modes[i].as_ref().map(|r| (entry_points, *model, r))
        });
        let (entry_points, model, registers) = match in_mode {
            Ok(in_mode) => in_mode,
            Err(e) => {
                values.insert(mode.name().to_string(), error_value(e));
                continue;
            }
        };
        let list: Vec<Value> = registers
            .iter()
            .map(|r| {
                let mut v = json!({
                    "global": r.global,
                    "hlsl_name": r.hlsl_name,
                    "kind": r.kind,
                    "register": format!("{}{}", r.class, r.register),
                    "space": r.space,
                    "count": r.count,
                });
                // Only where it holds, as in the GLSL bindings.
                if r.words {
                    v["words"] = json!(true);
                }
                v
            })
            .collect();
        let entry_points: Vec<Value> = entry_points
            .iter()
            .map(|e| {
                json!({
                    "entry_point": e.name,
                    "function": e.function,
                    "profile": e.profile(model),
                })
            })
            .collect();
        values.insert(
            mode.name().to_string(),
            json!({ "entry_points": entry_points, "registers": list }),
        );
        if mode == RegisterMode::Compact {
            compact = Some(registers.clone());
        }
    }
    (values, compact)
}

/// One parameter (a variable of a resource struct, split by
/// `front::split`): the globals it became and how their bindings and
/// registers lay out, the way spec/001 reports a split parameter.
fn parameter(
    parsed: &Parsed,
    p: &crate::front::split::Param,
    compact: Option<&[HlslRegister]>,
) -> Value {
    let module = &parsed.module;
    let handle = |name: &str| {
        module
            .global_variables
            .iter()
            .find(|(_, g)| g.name.as_deref() == Some(name))
            .map(|(h, _)| h)
    };
    // Element count: from the type naga gave the first split global.
    let count = p.array.as_ref().and_then(|_| {
        let h = handle(p.fields.first()?.global.as_str())?;
        match module.types[module.global_variables[h].ty].inner {
            naga::TypeInner::BindingArray {
                size: naga::ArraySize::Constant(n),
                ..
            } => Some(n.get()),
            _ => None,
        }
    });
    // (path, global, type, binding); the data part has no path.
    type Entry<'a> = (
        Option<&'a str>,
        &'a str,
        std::borrow::Cow<'a, str>,
        Option<naga::ResourceBinding>,
    );
    let externals = &parsed.annotations.externals;
    let bindings: Vec<Entry> = crate::front::external::param_globals(p, externals)
        .into_iter()
        .map(|(f, g)| {
            let h = handle(g);
            // As written, except a texture_external member's plane 1 and
            // parameter buffer, which the source does not spell.
            let ty = match f {
                None => std::borrow::Cow::Borrowed(p.ty.as_str()),
                Some(f) if f.global == g => std::borrow::Cow::Borrowed(f.ty.as_str()),
                Some(_) => std::borrow::Cow::Owned(h.map_or_else(
                    || "?".to_string(),
                    |h| naga_type_name(parsed, module.global_variables[h].ty),
                )),
            };
            let rb = h.and_then(|h| module.global_variables[h].binding);
            (f.map(|f| f.path.as_str()), g, ty, rb)
        })
        .collect();
    let first_binding = bindings.iter().filter_map(|b| b.3).map(|b| b.binding).min();
    let group = bindings.iter().find_map(|b| b.3).map(|b| b.group);
    let register = |g: &str| compact.and_then(|list| list.iter().find(|r| r.global == g));
    // Per register class: the first register the parameter takes.
    let mut classes: Vec<(char, u32, u32, u32)> = Vec::new(); // class, first, end, space
    for (_, g, _, _) in &bindings {
        if let Some(r) = register(g) {
            let end = r.register.saturating_add(r.count);
            match classes.iter_mut().find(|c| c.0 == r.class) {
                Some(c) => {
                    c.1 = c.1.min(r.register);
                    c.2 = c.2.max(end);
                }
                None => classes.push((r.class, r.register, end, r.space)),
            }
        }
    }
    let fields: Vec<Value> = bindings
        .iter()
        .map(|(path, g, ty, rb)| {
            let r = register(g);
            json!({
                "path": path,
                "global": g,
                "type": ty,
                "binding": rb.map(|b| b.binding),
                "binding_offset": rb.zip(first_binding).map(|(b, f)| b.binding - f),
                "register": r.map(|r| format!("{}{}", r.class, r.register)),
                "register_offset": r.and_then(|r| {
                    classes.iter().find(|c| c.0 == r.class).map(|c| r.register - c.1)
                }),
                "registers": r.map(|r| r.count),
            })
        })
        .collect();
    let ranges: Vec<Value> = classes
        .iter()
        .map(|&(class, first, end, space)| {
            json!({
                "class": class.to_string(),
                "space": space,
                "first": first,
                "count": end - first,
                // gPairs[n + 1].a is one register after gPairs[n].a; a
                // constant buffer is one register for the whole array.
                "stride": (p.array.is_some() && class != 'b').then_some(1),
            })
        })
        .collect();
    json!({
        "name": p.name.as_str(),
        "type": p.ty,
        "count": count,
        "runtime_sized": matches!(p.array, Some(None)),
        "vulkan": {
            "group": group,
            "first_binding": first_binding,
            "bindings": bindings.len(),
            "stride": p.array.is_some().then_some(0),
        },
        "d3d": if compact.is_some() { json!({ "ranges": ranges }) } else { Value::Null },
        "fields": fields,
    })
}

/// The name of an address space in the JSON and in derived `var<...>` text.
pub fn space_name(space: naga::AddressSpace) -> &'static str {
    match space {
        naga::AddressSpace::Function => "function",
        naga::AddressSpace::Private => "private",
        naga::AddressSpace::WorkGroup => "workgroup",
        naga::AddressSpace::Uniform => "uniform",
        naga::AddressSpace::Storage { .. } => "storage",
        naga::AddressSpace::Handle => "handle",
        naga::AddressSpace::Immediate => "push_constant",
        naga::AddressSpace::TaskPayload => "task_payload",
        naga::AddressSpace::RayPayload => "ray_payload",
        naga::AddressSpace::IncomingRayPayload => "incoming_ray_payload",
    }
}

/// The access of a storage space (`read_write` or `read`) in the JSON and
/// in derived `var<...>` text; `None` for every other space.
pub(crate) fn storage_access(space: naga::AddressSpace) -> Option<&'static str> {
    match space {
        naga::AddressSpace::Storage { access } if access.contains(naga::StorageAccess::STORE) => {
            Some("read_write")
        }
        naga::AddressSpace::Storage { .. } => Some("read"),
        _ => None,
    }
}

fn global(
    parsed: &Parsed,
    contract: &LayoutModule,
    handle: naga::Handle<naga::GlobalVariable>,
    var: &naga::GlobalVariable,
) -> Value {
    let name = var.name.clone().unwrap_or_default();
    // A lowered texture_external: which part of which texture this is.
    let external = parsed.annotations.externals.iter().find_map(|e| {
        let part = e.globals().position(|g| g == name)?;
        let part = ["plane0", "plane1", "params"].get(part).copied();
        Some(json!({ "texture": e.name.as_str(), "part": part }))
    });
    let ty = match external {
        Some(_) => None,
        None => global_type_text(parsed, &name),
    }
    .unwrap_or_else(|| naga_type_name(parsed, var.ty));
    let layout = contract
        .globals
        .iter()
        .find(|g| g.handle == handle)
        .map(|g| layout_value(contract, &g.layout))
        .unwrap_or(Value::Null);
    let mut value = json!({
        "name": name,
        "space": space_name(var.space),
        "access": storage_access(var.space),
        "group": var.binding.as_ref().map(|b| b.group),
        "binding": var.binding.as_ref().map(|b| b.binding),
        "allocated": parsed.allocations.iter().any(|a| a.global == handle),
        "type": ty,
        "layout": layout,
    });
    if let (Some(external), Some(map)) = (external, value.as_object_mut()) {
        map.insert("external_texture".into(), external);
    }
    value
}

/// naga's WGSL spelling of a type (used where the source text is unknown).
fn naga_type_name(parsed: &Parsed, ty: naga::Handle<naga::Type>) -> String {
    use naga::common::wgsl::TypeContext;
    let mut out = String::new();
    if parsed.module.to_ctx().write_type(ty, &mut out).is_err() {
        out = "?".to_string();
    }
    out
}

fn struct_value(parsed: &Parsed, contract: &LayoutModule, s: &StructLayout) -> Value {
    let decl = scanned_struct(parsed, &s.name);
    let mut members = Vec::new();
    let mut padding = Vec::new();
    for slot in &s.slots {
        match slot {
            Slot::Member(m) => {
                let member = decl
                    .and_then(|d| d.0.members.get(m.index))
                    .filter(|mem| mem.name == m.name);
                members.push(json!({
                    "name": m.name.as_str(),
                    "offset": m.offset,
                    "size": m.size,
                    "align": m.align,
                    "type": member_type_text(parsed, contract, member, &s.name, m),
                    "layout": layout_value(contract, &m.layout),
                }))
            }
            Slot::Padding(p) => padding.push(json!({
                "offset": p.offset,
                "size": p.size,
                "reason": match p.reason {
                    PaddingReason::FieldAlignment => "field-alignment",
                    PaddingReason::StructSize => "struct-size",
                },
            })),
        }
    }
    json!({
        "name": s.name.as_str(),
        "size": s.size,
        "align": s.align,
        "members": members,
        "padding": padding,
    })
}

/// One layout: `kind`, `size`, `align`, then the kind's own fields.
fn layout_value(contract: &LayoutModule, layout: &Layout) -> Value {
    let (kind, fields) = match &layout.kind {
        LayoutKind::Scalar(s) => ("scalar", vec![("scalar", json!(s.wgsl_name()))]),
        LayoutKind::Atomic(s) => ("atomic", vec![("scalar", json!(s.wgsl_name()))]),
        LayoutKind::Vector { size, scalar } => (
            "vector",
            vec![
                ("components", json!(size)),
                ("scalar", json!(scalar.wgsl_name())),
            ],
        ),
        LayoutKind::Matrix {
            columns,
            rows,
            scalar,
            column_stride,
        } => (
            "matrix",
            vec![
                ("columns", json!(columns)),
                ("rows", json!(rows)),
                ("scalar", json!(scalar.wgsl_name())),
                ("column_stride", json!(column_stride)),
            ],
        ),
        LayoutKind::Array {
            element,
            stride,
            count,
        } => (
            "array",
            vec![
                ("count", json!(count)),
                ("stride", json!(stride)),
                ("element", layout_value(contract, element)),
            ],
        ),
        LayoutKind::Struct(h) => {
            let name = contract.structs.get(h).map(|s| s.name.to_string());
            ("struct", vec![("struct", json!(name))])
        }
    };
    let mut map = Map::new();
    map.insert("kind".into(), json!(kind));
    map.insert("type".into(), json!(layout_type_name(contract, layout)));
    map.insert("size".into(), json!(layout.size));
    map.insert("align".into(), json!(layout.align));
    map.extend(fields.into_iter().map(|(k, v)| (k.to_string(), v)));
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::back::listing::tests::{
        array_, f32_, member, pad, parsed, spec_example, struct_, type_handle, vec_,
    };
    use crate::layout::{GlobalLayout, RuleSet};
    use pretty_assertions::assert_eq;

    const SMALL: &str = "
struct P {
    a : f32,
    b : vec3<f32>,
}
@group(0) @binding(1) var<uniform> p : P;
@group(1) @binding(0) var<storage, read_write> data : array<f32>;
@group(0) @binding(2) var t : texture_2d<f32>;
@group(0) @binding(3) var s : sampler;
var<private> q : f32;
var<workgroup> w : array<u32, 4>;
";

    /// [`write`] after validating the module.
    fn json(p: &Parsed, contract: &LayoutModule) -> String {
        let info = crate::front::validate_parsed(p).expect("valid");
        write(p, &info, contract)
    }

    fn small() -> (Parsed, LayoutModule) {
        let p = parsed(SMALL, &[]);
        let hp = type_handle(&p.module, "P");
        let ps = StructLayout {
            name: "P".into(),
            ty: hp,
            size: Some(32),
            align: 16,
            slots: vec![
                member(0, "a", 0, f32_()),
                pad(4, 12, PaddingReason::FieldAlignment),
                member(1, "b", 16, vec_(3)),
                pad(28, 4, PaddingReason::StructSize),
            ],
        };
        let mut structs = naga::FastIndexMap::default();
        structs.insert(hp, ps);
        let mut globals = Vec::new();
        for (handle, var) in p.module.global_variables.iter() {
            let layout = match var.name.as_deref() {
                Some("p") => struct_(hp, 32, 16),
                Some("data") => array_(f32_(), 4, None),
                _ => continue,
            };
            globals.push(GlobalLayout {
                handle,
                name: var.name.as_deref().unwrap_or_default().into(),
                space: var.space,
                binding: var.binding,
                layout,
            });
        }
        let contract = LayoutModule {
            rules: RuleSet::Wgsl,
            structs,
            globals,
        };
        (p, contract)
    }

    const SMALL_JSON: &str = r#"{
  "version": 1,
  "globals": [
    {
      "name": "p",
      "space": "uniform",
      "access": null,
      "group": 0,
      "binding": 1,
      "allocated": false,
      "type": "P",
      "layout": {
        "kind": "struct",
        "type": "P",
        "size": 32,
        "align": 16,
        "struct": "P"
      }
    },
    {
      "name": "data",
      "space": "storage",
      "access": "read_write",
      "group": 1,
      "binding": 0,
      "allocated": false,
      "type": "array<f32>",
      "layout": {
        "kind": "array",
        "type": "array<f32>",
        "size": null,
        "align": 4,
        "count": null,
        "stride": 4,
        "element": {
          "kind": "scalar",
          "type": "f32",
          "size": 4,
          "align": 4,
          "scalar": "f32"
        }
      }
    },
    {
      "name": "t",
      "space": "handle",
      "access": null,
      "group": 0,
      "binding": 2,
      "allocated": false,
      "type": "texture_2d<f32>",
      "layout": null
    },
    {
      "name": "s",
      "space": "handle",
      "access": null,
      "group": 0,
      "binding": 3,
      "allocated": false,
      "type": "sampler",
      "layout": null
    },
    {
      "name": "q",
      "space": "private",
      "access": null,
      "group": null,
      "binding": null,
      "allocated": false,
      "type": "f32",
      "layout": null
    },
    {
      "name": "w",
      "space": "workgroup",
      "access": null,
      "group": null,
      "binding": null,
      "allocated": false,
      "type": "array<u32, 4>",
      "layout": null
    }
  ],
  "parameters": [],
  "types": [
    {
      "name": "P",
      "size": 32,
      "align": 16,
      "members": [
        {
          "name": "a",
          "offset": 0,
          "size": 4,
          "align": 4,
          "type": "f32",
          "layout": {
            "kind": "scalar",
            "type": "f32",
            "size": 4,
            "align": 4,
            "scalar": "f32"
          }
        },
        {
          "name": "b",
          "offset": 16,
          "size": 12,
          "align": 16,
          "type": "vec3<f32>",
          "layout": {
            "kind": "vector",
            "type": "vec3<f32>",
            "size": 12,
            "align": 16,
            "components": 3,
            "scalar": "f32"
          }
        }
      ],
      "padding": [
        {
          "offset": 4,
          "size": 12,
          "reason": "field-alignment"
        },
        {
          "offset": 28,
          "size": 4,
          "reason": "struct-size"
        }
      ]
    }
  ],
  "glsl": {
    "vulkan450": {
      "error": "this module has no entry point; a GLSL file is written per @compute, @vertex or @fragment function"
    },
    "gl450": {
      "error": "this module has no entry point; a GLSL file is written per @compute, @vertex or @fragment function"
    }
  },
  "hlsl": {
    "wgsl": {
      "entry_points": [],
      "registers": [
        {
          "global": "p",
          "hlsl_name": "p_cb",
          "kind": "cbuffer",
          "register": "b1",
          "space": 0,
          "count": 1
        },
        {
          "global": "data",
          "hlsl_name": "data",
          "kind": "rw-byte-address-buffer",
          "register": "u0",
          "space": 1,
          "count": 1
        },
        {
          "global": "t",
          "hlsl_name": "t",
          "kind": "texture",
          "register": "t2",
          "space": 0,
          "count": 1
        },
        {
          "global": "s",
          "hlsl_name": "s",
          "kind": "sampler",
          "register": "s3",
          "space": 0,
          "count": 1
        }
      ]
    },
    "compact": {
      "entry_points": [],
      "registers": [
        {
          "global": "p",
          "hlsl_name": "p_cb",
          "kind": "cbuffer",
          "register": "b0",
          "space": 0,
          "count": 1
        },
        {
          "global": "data",
          "hlsl_name": "data",
          "kind": "rw-byte-address-buffer",
          "register": "u0",
          "space": 1,
          "count": 1
        },
        {
          "global": "t",
          "hlsl_name": "t",
          "kind": "texture",
          "register": "t0",
          "space": 0,
          "count": 1
        },
        {
          "global": "s",
          "hlsl_name": "s",
          "kind": "sampler",
          "register": "s0",
          "space": 0,
          "count": 1
        }
      ]
    }
  }
}
"#;

    #[test]
    fn small_module_json() {
        let (p, contract) = small();
        assert_eq!(json(&p, &contract), SMALL_JSON);
    }

    #[test]
    fn key_order_is_stable() {
        let (p, contract) = small();
        let text = json(&p, &contract);
        let root: Value = serde_json::from_str(&text).unwrap();
        let keys: Vec<&String> = root.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["version", "globals", "parameters", "types", "glsl", "hlsl"]
        );
        let g0: Vec<&String> = root["globals"][0].as_object().unwrap().keys().collect();
        assert_eq!(
            g0,
            [
                "name",
                "space",
                "access",
                "group",
                "binding",
                "allocated",
                "type",
                "layout"
            ]
        );
        assert!(text.ends_with("}\n"));
    }

    #[test]
    fn spec_example_json_is_deterministic() {
        let (p, contract) = spec_example();
        let first = json(&p, &contract);
        for _ in 0..3 {
            assert_eq!(json(&p, &contract), first);
        }
        let root: Value = serde_json::from_str(&first).unwrap();
        let b = &root["types"][1];
        assert_eq!(b["name"], "B");
        assert_eq!(b["size"], 160);
        let g = &b["members"][6];
        assert_eq!(g["type"], "@stride(24) array<A, 3>");
        assert_eq!(g["offset"], 80);
        assert_eq!(g["layout"]["stride"], 24);
        assert_eq!(g["layout"]["count"], 3);
        assert_eq!(g["layout"]["element"]["struct"], "A");
        assert_eq!(root["globals"][0]["access"], "read");
        assert_eq!(root["globals"][0]["layout"]["struct"], "B");
    }

    fn reflect(source: &str) -> Value {
        let options = crate::Options {
            target: crate::Target::Reflect,
            ..Default::default()
        };
        let text = match crate::translate(source, &options) {
            Ok(t) => match t.output {
                crate::Output::Text(text) => text,
                other => panic!("non-text output for --target reflect: {other:?}"),
            },
            Err(e) => panic!("translation failed:\n{e}"),
        };
        assert!(text.ends_with("}\n"));
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn e2e_every_global_and_written_types() {
        let root = reflect(
            "
@size(16) alias RGBX = vec3<f32>;
struct Light { color : RGBX, @align(16) intensity : f32, m : mat3x3<f32> }
struct Lights { count : u32, items : @stride(80) array<Light> }
@group(0) @binding(0) var<storage, read> lights : Lights;
@group(0) @binding(1) var tex : texture_2d<f32>;
@group(0) @binding(2) var samp : sampler;
@group(1) @binding(0) var<uniform> scale : vec4<f32>;
var<private> counter : u32;
var<workgroup> tile : array<u32, 64>;
@compute @workgroup_size(1) fn main() { _ = lights.count; }
",
        );
        let globals = root["globals"].as_array().unwrap();
        let names: Vec<&str> = globals
            .iter()
            .map(|g| g["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["lights", "tex", "samp", "scale", "counter", "tile"]);
        let spaces: Vec<&str> = globals
            .iter()
            .map(|g| g["space"].as_str().unwrap())
            .collect();
        assert_eq!(
            spaces,
            [
                "storage",
                "handle",
                "handle",
                "uniform",
                "private",
                "workgroup"
            ]
        );
        assert_eq!(globals[0]["access"], "read");
        assert_eq!(globals[0]["layout"]["struct"], "Lights");
        assert_eq!(globals[0]["layout"]["size"], Value::Null);
        assert_eq!(globals[1]["type"], "texture_2d<f32>");
        assert_eq!(globals[1]["layout"], Value::Null);
        assert_eq!(globals[3]["group"], 1);
        assert_eq!(globals[3]["layout"]["kind"], "vector");
        assert_eq!(globals[4]["group"], Value::Null);
        assert_eq!(globals[5]["type"], "array<u32, 64>");

        let types = root["types"].as_array().unwrap();
        assert_eq!(types[0]["name"], "Light");
        assert_eq!(types[0]["size"], 80);
        let color = &types[0]["members"][0];
        assert_eq!(color["type"], "RGBX");
        assert_eq!(color["size"], 16);
        let m = &types[0]["members"][2];
        assert_eq!(m["offset"], 32);
        assert_eq!(m["layout"]["column_stride"], 16);
        assert_eq!(types[1]["name"], "Lights");
        assert_eq!(types[1]["size"], Value::Null);
        let items = &types[1]["members"][1];
        assert_eq!(items["type"], "@stride(80) array<Light>");
        assert_eq!(items["layout"]["stride"], 80);
        assert_eq!(items["layout"]["count"], Value::Null);
        assert_eq!(items["layout"]["element"]["struct"], "Light");
        // Members and padding cover the struct without gaps.
        for ty in types {
            let mut spans: Vec<(u64, u64)> = Vec::new();
            for key in ["members", "padding"] {
                for slot in ty[key].as_array().unwrap() {
                    let size = slot["size"].as_u64().unwrap_or(0);
                    spans.push((slot["offset"].as_u64().unwrap(), size));
                }
            }
            spans.sort();
            for pair in spans.windows(2) {
                assert!(pair[0].0 + pair[0].1 <= pair[1].0, "{ty}");
            }
        }
    }

    #[test]
    fn external_texture_parts_say_what_the_host_binds() {
        let root = reflect(
            "
@group(0) @binding(0) var frame: texture_external;
@group(0) @binding(1) var samp: sampler;
@group(1) var video: texture_external;
@fragment fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return textureSampleBaseClampToEdge(frame, samp, uv) + textureLoad(video, vec2<u32>(textureDimensions(video) / 2u));
}
",
        );
        let globals = root["globals"].as_array().unwrap();
        let row = |g: &Value| {
            (
                g["name"].as_str().unwrap().to_string(),
                g["space"].as_str().unwrap().to_string(),
                g["type"].as_str().unwrap().to_string(),
                g["group"].as_u64().unwrap(),
                g["binding"].as_u64().unwrap(),
                g["external_texture"]["texture"]
                    .as_str()
                    .map(str::to_string),
                g["external_texture"]["part"].as_str().map(str::to_string),
            )
        };
        let rows: Vec<_> = globals.iter().map(row).collect();
        let external = |n: &str, s: &str, t: &str, g: u64, b: u64, tex: &str, part: &str| {
            let owned = |x: &str| x.to_string();
            (
                owned(n),
                owned(s),
                owned(t),
                g,
                b,
                Some(owned(tex)),
                Some(owned(part)),
            )
        };
        // `frame` keeps binding 0; its plane 1 and parameters take the
        // first free range of two after the explicit bindings. `video`
        // omits its binding: the three are one range in group 1.
        assert_eq!(
            rows,
            [
                external(
                    "frame",
                    "handle",
                    "texture_2d<f32>",
                    0,
                    0,
                    "frame",
                    "plane0"
                ),
                external(
                    "frame_uv",
                    "handle",
                    "texture_2d<f32>",
                    0,
                    2,
                    "frame",
                    "plane1"
                ),
                external(
                    "frame_params",
                    "uniform",
                    "ExternalTextureParams",
                    0,
                    3,
                    "frame",
                    "params"
                ),
                (
                    "samp".to_string(),
                    "handle".to_string(),
                    "sampler".to_string(),
                    0,
                    1,
                    None,
                    None
                ),
                external(
                    "video",
                    "handle",
                    "texture_2d<f32>",
                    1,
                    0,
                    "video",
                    "plane0"
                ),
                external(
                    "video_uv",
                    "handle",
                    "texture_2d<f32>",
                    1,
                    1,
                    "video",
                    "plane1"
                ),
                external(
                    "video_params",
                    "uniform",
                    "ExternalTextureParams",
                    1,
                    2,
                    "video",
                    "params"
                ),
            ]
        );
        assert_eq!(globals[2]["layout"]["size"], 208);
        // D3D: the planes are t registers, the parameters a cbuffer.
        let registers = root["hlsl"]["wgsl"]["registers"].as_array().unwrap();
        let register = |name: &str| {
            let r = registers.iter().find(|r| r["global"] == name).unwrap();
            (
                r["kind"].as_str().unwrap().to_string(),
                r["register"].as_str().unwrap().to_string(),
                r["space"].as_u64().unwrap(),
            )
        };
        assert_eq!(
            register("frame_uv"),
            ("texture".to_string(), "t2".to_string(), 0)
        );
        assert_eq!(
            register("video_params"),
            ("cbuffer".to_string(), "b2".to_string(), 1)
        );
    }
}
