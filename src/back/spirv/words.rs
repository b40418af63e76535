//! Repairs of the words naga 30's SPIR-V writer emits, made on the parsed
//! instruction stream (opcode, word count and operands), never on text.
//!
//! - `textureNumLayers` is written as `OpImageQuerySizeLod` with level 0
//!   whatever the image; Vulkan allows that instruction only on sampled,
//!   single-sampled images (VUID-StandaloneSpirv-OpImageQuerySizeLod-04659).
//!   On a storage image (`Sampled` 2) or a multisampled one (`MS` 1) the
//!   query becomes `OpImageQuerySize`, which has no level operand and gives
//!   the same vector.
//! - A binding-array element passed to a function that takes a texture or
//!   sampler is passed loaded (`OpLoad` of the element's access chain)
//!   where the parameter is a pointer to it. The argument becomes the
//!   access chain the value was loaded from, a pointer of the parameter's
//!   type.

use indexmap::IndexMap;

const OP_TYPE_IMAGE: u32 = 25;
const OP_TYPE_POINTER: u32 = 32;
const OP_FUNCTION: u32 = 54;
const OP_FUNCTION_PARAMETER: u32 = 55;
const OP_FUNCTION_CALL: u32 = 57;
const OP_LOAD: u32 = 61;
const OP_ACCESS_CHAIN: u32 = 65;
const OP_COPY_OBJECT: u32 = 83;
const OP_IMAGE: u32 = 100;
const OP_IMAGE_QUERY_SIZE_LOD: u32 = 103;
const OP_IMAGE_QUERY_SIZE: u32 = 104;
const OP_SELECT: u32 = 169;
const OP_PHI: u32 = 245;

/// The words of a module's header, before the first instruction.
const HEADER_WORDS: usize = 5;

/// One instruction of the stream: where it starts and how many words it has.
#[derive(Clone, Copy)]
struct Instruction {
    start: usize,
    count: usize,
    opcode: u32,
}

/// The instructions of `words`, in order; stops at a malformed one (a zero
/// word count or one running past the end), leaving the rest unread. An
/// iterator, so that asking whether a repair applies allocates nothing.
fn instructions(words: &[u32]) -> impl Iterator<Item = Instruction> + '_ {
    let mut at = HEADER_WORDS;
    std::iter::from_fn(move || {
        let count = (*words.get(at)? >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return None;
        }
        let inst = Instruction {
            start: at,
            count,
            opcode: words[at] & 0xffff,
        };
        at += count;
        Some(inst)
    })
}

/// Does an image type (`OpTypeImage`'s operands) allow only
/// `OpImageQuerySize`: a storage image (`Sampled` 2) or a multisampled one?
fn sizes_without_level(image_type: &[u32]) -> bool {
    // OpTypeImage: result, sampled type, Dim, Depth, Arrayed, MS, Sampled, format.
    let ms = image_type.get(5).copied();
    let sampled = image_type.get(6).copied();
    ms == Some(1) || sampled == Some(2)
}

/// Whether `module` has an image type [`sizes_without_level`] describes (a
/// storage or multisampled image) and a `textureNumLayers` query.
fn layer_queries_on_levelless_images(module: &naga::Module) -> bool {
    let levelless = module.types.iter().any(|(_, t)| {
        matches!(
            t.inner,
            naga::TypeInner::Image {
                class: naga::ImageClass::Storage { .. }
                    | naga::ImageClass::Sampled { multi: true, .. }
                    | naga::ImageClass::Depth { multi: true },
                ..
            }
        )
    });
    let layers = |f: &naga::Function| {
        f.expressions.iter().any(|(_, e)| {
            matches!(
                e,
                naga::Expression::ImageQuery {
                    query: naga::ImageQuery::NumLayers,
                    ..
                }
            )
        })
    };
    levelless && super::hazard::Site::all(module).any(|(_, f)| layers(f))
}

/// The size-query repair (see the module documentation) of `words`,
/// written from `module`: only `textureNumLayers` on a storage or
/// multisampled image needs it, so a module with no such image type or no
/// such query (most) is not scanned.
pub fn query_size_without_level(words: &mut Vec<u32>, module: &naga::Module) {
    if layer_queries_on_levelless_images(module) {
        rewrite_levelless_size_queries(words);
    }
}

/// Rewrite every `OpImageQuerySizeLod` whose image [`sizes_without_level`]
/// into `OpImageQuerySize`, dropping the level operand. The type of the
/// image operand is found through the instructions naga gives an image
/// value with (`OpLoad`, `OpImage`, `OpFunctionParameter`, `OpCopyObject`,
/// `OpSelect`, `OpPhi`); a query whose image type is not found is left as
/// it is.
fn rewrite_levelless_size_queries(words: &mut Vec<u32>) {
    if !instructions(words).any(|i| i.opcode == OP_IMAGE_QUERY_SIZE_LOD && i.count == 5) {
        return;
    }
    let stream: Vec<Instruction> = instructions(words).collect();
    let mut levelless_types = Vec::new();
    let mut value_types = IndexMap::new();
    for i in &stream {
        let operands = &words[i.start + 1..i.start + i.count];
        match i.opcode {
            OP_TYPE_IMAGE if sizes_without_level(operands) => levelless_types.push(operands[0]),
            OP_FUNCTION_PARAMETER | OP_LOAD | OP_COPY_OBJECT | OP_IMAGE | OP_SELECT | OP_PHI
                if operands.len() >= 2 =>
            {
                value_types.insert(operands[1], operands[0]);
            }
            _ => {}
        }
    }
    if levelless_types.is_empty() {
        return;
    }
    // OpImageQuerySizeLod: result type, result, image, level; the level
    // words to drop, in order.
    let mut levels = Vec::new();
    for i in &stream {
        let levelless = i.opcode == OP_IMAGE_QUERY_SIZE_LOD
            && i.count == 5
            && value_types
                .get(&words[i.start + 3])
                .is_some_and(|ty| levelless_types.contains(ty));
        if levelless {
            words[i.start] = (4 << 16) | OP_IMAGE_QUERY_SIZE;
            levels.push(i.start + 4);
        }
    }
    let mut at = 0;
    words.retain(|_| {
        at += 1;
        levels.binary_search(&(at - 1)).is_err()
    });
}

/// Give every call argument that is a value loaded through a pointer of
/// the callee's parameter type that pointer instead (see the module
/// documentation); nothing else changes. Word counts stay the same.
pub fn pointer_arguments(words: &mut [u32]) {
    if !instructions(words).any(|i| i.opcode == OP_FUNCTION_CALL) {
        return;
    }
    let stream: Vec<Instruction> = instructions(words).collect();
    // Pointer types by pointee, values by id with their type, the loads
    // with their pointer, the parameter types of each function.
    let mut pointers = IndexMap::new();
    let mut types = IndexMap::new();
    let mut loads = IndexMap::new();
    let mut parameters: IndexMap<u32, Vec<u32>> = IndexMap::new();
    let mut current = None;
    for i in &stream {
        let operands = &words[i.start + 1..i.start + i.count];
        match (i.opcode, operands) {
            (OP_TYPE_POINTER, &[id, _, pointee]) => {
                pointers.insert(id, pointee);
            }
            (OP_FUNCTION, &[_, id, ..]) => {
                current = Some(id);
                parameters.insert(id, Vec::new());
            }
            (OP_FUNCTION_PARAMETER, &[ty, _]) => {
                if let Some(list) = current.and_then(|f| parameters.get_mut(&f)) {
                    list.push(ty);
                }
            }
            (OP_LOAD, &[ty, id, pointer, ..]) => {
                types.insert(id, ty);
                loads.insert(id, pointer);
            }
            (OP_ACCESS_CHAIN, &[ty, id, ..]) => {
                types.insert(id, ty);
            }
            _ => {}
        }
    }
    for i in &stream {
        if i.opcode != OP_FUNCTION_CALL || i.count < 4 {
            continue;
        }
        // OpFunctionCall: result type, result, function, arguments.
        let Some(expected) = parameters.get(&words[i.start + 3]) else {
            continue;
        };
        for (k, parameter) in expected.iter().enumerate() {
            let at = i.start + 4 + k;
            if at >= i.start + i.count || !pointers.contains_key(parameter) {
                continue;
            }
            let argument = words[at];
            let Some(&pointer) = loads.get(&argument) else {
                continue;
            };
            let loaded_pointee = types.get(&argument);
            if types.get(&pointer) == Some(parameter) && pointers.get(parameter) == loaded_pointee {
                words[at] = pointer;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(opcode: u32, operands: &[u32]) -> Vec<u32> {
        let mut w = vec![((operands.len() as u32 + 1) << 16) | opcode];
        w.extend_from_slice(operands);
        w
    }

    fn module(images: &[(u32, u32, u32)]) -> Vec<u32> {
        // (image type id, MS, Sampled); each loaded as id + 100, queried.
        let mut w = vec![0x0723_0203, 0x0001_0300, 0, 1000, 0];
        for &(ty, ms, sampled) in images {
            w.extend(inst(OP_TYPE_IMAGE, &[ty, 1, 1, 0, 1, ms, sampled, 0]));
        }
        for &(ty, _, _) in images {
            w.extend(inst(OP_LOAD, &[ty, ty + 100, 7]));
            w.extend(inst(OP_IMAGE_QUERY_SIZE_LOD, &[3, ty + 200, ty + 100, 9]));
        }
        w
    }

    #[test]
    fn storage_and_multisampled_queries_lose_their_level() {
        let mut words = module(&[(10, 0, 1), (11, 0, 2), (12, 1, 1)]);
        rewrite_levelless_size_queries(&mut words);
        let ops: Vec<(u32, usize)> = instructions(&words).map(|i| (i.opcode, i.count)).collect();
        assert_eq!(
            ops[3..],
            [
                (OP_LOAD, 4),
                (OP_IMAGE_QUERY_SIZE_LOD, 5),
                (OP_LOAD, 4),
                (OP_IMAGE_QUERY_SIZE, 4),
                (OP_LOAD, 4),
                (OP_IMAGE_QUERY_SIZE, 4),
            ]
        );
        // The result type, result and image operands are kept.
        let last = instructions(&words).nth(8).unwrap();
        assert_eq!(words[last.start + 1..last.start + 4], [3, 212, 112]);
    }

    #[test]
    fn sampled_queries_are_unchanged() {
        let before = module(&[(10, 0, 1)]);
        let mut words = before.clone();
        rewrite_levelless_size_queries(&mut words);
        assert_eq!(words, before);
    }
}
