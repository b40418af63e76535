//! Binding assignment for every API, after layout: the GLSL bindings
//! (Vulkan set/binding, OpenGL units per kind and combined-sampler pairs)
//! and the D3D registers (both register modes, and the Vulkan bindings Slang
//! declares). Both start from the WGSL `@group`/`@binding` the front end
//! assigned (`front::bindings`, spec/001).
//!
//! [`Assignments`] holds them as data for one module: each API's
//! assignment is made once, when a writer or reflect first asks for it,
//! and read by all of them afterwards. A translation has one per module it
//! writes (`back::common::Modules`): the parsed module's, and its copy
//! with the overrides baked (baking compacts the module, which changes its
//! handles and drops the resources no entry point uses, so OpenGL units
//! and compact registers are assigned over what is left).

pub mod d3d;
pub mod gl;

use crate::diag::Diagnostics;
use std::cell::OnceCell;

type GlobalHandle = naga::Handle<naga::GlobalVariable>;

/// Every API's binding assignment of one module, each made on first
/// request and kept (see the module doc). The module and info passed to
/// the methods must be the same every time.
#[derive(Debug, Default)]
pub struct Assignments {
    order: OnceCell<Vec<GlobalHandle>>,
    vulkan: OnceCell<gl::GlAssignment>,
    opengl: OnceCell<gl::GlAssignment>,
    /// By [`d3d::RegisterMode`]: `wgsl`, `compact`.
    d3d: [OnceCell<Result<d3d::Registers, Diagnostics>>; 2],
}

impl Assignments {
    /// The module's globals in declaration order.
    pub fn order(&self, module: &naga::Module) -> &[GlobalHandle] {
        self.order
            .get_or_init(|| crate::front::module::declaration_order(module))
    }

    /// The GLSL assignment: Vulkan's when `vulkan`, else OpenGL's.
    pub fn gl(
        &self,
        module: &naga::Module,
        info: &naga::valid::ModuleInfo,
        vulkan: bool,
    ) -> &gl::GlAssignment {
        let cell = if vulkan { &self.vulkan } else { &self.opengl };
        cell.get_or_init(|| {
            counted();
            gl::assign(module, info, self.order(module), vulkan)
        })
    }

    /// The D3D registers (and Slang's Vulkan bindings) in register mode
    /// `mode`.
    pub fn d3d(
        &self,
        module: &naga::Module,
        mode: d3d::RegisterMode,
    ) -> Result<&d3d::Registers, Diagnostics> {
        let cell = match mode {
            d3d::RegisterMode::Wgsl => &self.d3d[0],
            d3d::RegisterMode::Compact => &self.d3d[1],
        };
        cell.get_or_init(|| {
            counted();
            d3d::assign(module, self.order(module), mode)
        })
        .as_ref()
        .map_err(Clone::clone)
    }
}

#[cfg(test)]
thread_local! {
    /// How many API assignments this thread has made (tests only).
    static MADE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Count one API assignment (tests read the count with [`made`]).
fn counted() {
    #[cfg(test)]
    MADE.with(|m| m.set(m.get() + 1));
}

/// How many API assignments this thread has made so far.
#[cfg(test)]
pub(crate) fn made() -> usize {
    MADE.with(|m| m.get())
}
