//! Byte offsets as data, for the targets that read buffers at the
//! contract's byte offsets: HLSL's byte-address buffers and word cbuffers,
//! and GLSL's words blocks. Both languages spell a `uint` offset the same
//! way (`16u`, `(32u + o + 16u * i)`).

use crate::layout::realize::bytes;
use crate::layout::{Layout, LayoutKind, LayoutModule};
use std::borrow::Cow;

/// A byte offset into a buffer read as bytes or words, as data: a constant
/// plus terms, combined as the access chain walks down and printed once,
/// where a load, store or atomic is written. Nothing is ever read back from
/// its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ByteOffset<'a> {
    /// The constant part, in bytes.
    pub constant: u64,
    /// The other terms, in the order they were added (none while every step
    /// of the chain is constant: then nothing is allocated).
    pub terms: Vec<Term<'a>>,
}

/// One non-constant term of a [`ByteOffset`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term<'a> {
    /// A `uint` variable that holds a byte offset (a helper's parameter).
    Base(&'a str),
    /// `stride * index`, with the index as `func` wrote it.
    Scaled { stride: u64, index: Cow<'a, str> },
}

impl<'a> ByteOffset<'a> {
    /// A constant offset.
    pub fn constant(constant: u64) -> Self {
        ByteOffset {
            constant,
            terms: Vec::new(),
        }
    }

    /// The offset held in the `uint` variable `name`.
    pub fn base(name: &'a str) -> Self {
        ByteOffset {
            constant: 0,
            terms: vec![Term::Base(name)],
        }
    }

    /// This offset plus `constant` bytes.
    pub fn plus(mut self, constant: u64) -> Self {
        self.constant = self.constant.saturating_add(constant);
        self
    }

    /// A copy of this offset plus `constant` bytes (`self` stays).
    pub fn offset_by(&self, constant: u64) -> Self {
        self.clone().plus(constant)
    }

    /// This offset plus `stride * index`.
    pub fn plus_scaled(mut self, stride: u64, index: impl Into<Cow<'a, str>>) -> Self {
        self.terms.push(Term::Scaled {
            stride,
            index: index.into(),
        });
        self
    }

    /// Whether this is the constant 0.
    pub fn is_zero(&self) -> bool {
        self.constant == 0 && self.terms.is_empty()
    }

    /// The `uint` text, appended to `out`: `16u`, a lone term, or
    /// `(32u + o + 16u * i)` (the constant first, then the terms).
    pub fn push_to(&self, out: &mut String) {
        self.push_with(out, true);
    }

    /// [`Self::push_to`] for a place that delimits it already (a call
    /// argument): a sum is not parenthesized.
    pub fn push_bare_to(&self, out: &mut String) {
        self.push_with(out, false);
    }

    fn push_with(&self, out: &mut String, group: bool) {
        if self.terms.is_empty() {
            super::common::push_decimal(out, self.constant);
            out.push('u');
            return;
        }
        let sum = group && self.terms.len() + usize::from(self.constant != 0) > 1;
        if sum {
            out.push('(');
        }
        if self.constant != 0 {
            super::common::push_decimal(out, self.constant);
            out.push_str("u + ");
        }
        for (k, term) in self.terms.iter().enumerate() {
            if k > 0 {
                out.push_str(" + ");
            }
            match term {
                Term::Base(name) => out.push_str(name),
                Term::Scaled { stride, index } => {
                    if *stride != 1 {
                        super::common::push_decimal(out, *stride);
                        out.push_str("u * ");
                    }
                    // The index's writer made it an operand.
                    out.push_str(index);
                }
            }
        }
        if sum {
            out.push(')');
        }
    }

    /// The text of [`Self::push_to`] as a string of its own.
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(24);
        self.push_to(&mut out);
        out
    }

    /// Call `f` with the offset's text (a constant is written into a buffer
    /// on the stack: `16u`).
    pub fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        if !self.terms.is_empty() {
            return f(&self.text());
        }
        let mut text = [b'u'; 21];
        let start = super::common::decimal_at_end(&mut text[..20], self.constant);
        f(std::str::from_utf8(&text[start..]).unwrap_or("0u"))
    }
}

/// An index into an array, matrix or vector, as the writer has already
/// printed it (clamped as the bounds-check policy requires).
pub enum Index<'a> {
    Constant(u32),
    /// An expression that is an operand as it is (a name, a number, a call
    /// or a whole in parentheses): a byte offset multiplies it by a stride.
    Dynamic(&'a str),
}

impl Index<'_> {
    /// `[index]`, appended to `out`.
    pub fn push_bracketed(&self, out: &mut String) {
        out.push('[');
        match self {
            Index::Constant(n) => super::common::push_decimal(out, u64::from(*n)),
            Index::Dynamic(s) => out.push_str(s),
        }
        out.push(']');
    }
}

/// Where a pointer into a buffer read at byte offsets points: the value at
/// `offset` of `buffer` (an HLSL global, a GLSL words block), laid out as
/// `layout`, the contract layout of the pointee (owned for a matrix column
/// or vector component, which the contract does not spell out). The access
/// chain steps down with [`Self::member`] and [`Self::element`], taking the
/// offsets and strides from the contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BytePlace<'a, B> {
    pub buffer: B,
    pub offset: ByteOffset<'a>,
    pub layout: Cow<'a, Layout>,
}

impl<'a, B> BytePlace<'a, B> {
    /// Member `index` (naga's member index) of the struct here; the place
    /// itself when it holds no struct.
    pub fn member(self, contract: &'a LayoutModule, index: u32) -> Self {
        let slot = match self.layout.kind {
            LayoutKind::Struct(h) => contract
                .structs
                .get(&h)
                .and_then(|s| s.members().find(|m| m.index == index as usize)),
            _ => None,
        };
        match slot {
            Some(slot) => BytePlace {
                buffer: self.buffer,
                offset: self.offset.plus(slot.offset),
                layout: Cow::Borrowed(&slot.layout),
            },
            None => self,
        }
    }

    /// Element `index` (an array element, a matrix column or a vector
    /// component) here; the place itself when it holds none of those.
    pub fn element(self, index: Index<'_>) -> Self {
        let sub = match &self.layout {
            Cow::Borrowed(l) => bytes::element(l),
            Cow::Owned(l) => bytes::element(l).map(|(step, e)| (step, Cow::Owned(e.into_owned()))),
        };
        let Some((step, layout)) = sub else {
            return self;
        };
        let offset = match index {
            Index::Constant(n) => self.offset.plus(u64::from(n).saturating_mul(step)),
            Index::Dynamic(i) => self.offset.plus_scaled(step, i.to_string()),
        };
        BytePlace {
            buffer: self.buffer,
            offset,
            layout,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::back::listing::tests::{array_ as array, f32_};

    #[test]
    fn elements_step_by_the_contract_stride() {
        let layout = array(array(f32_(), 16, Some(3)), 64, Some(2));
        let place = BytePlace {
            buffer: (),
            offset: ByteOffset::constant(8),
            layout: Cow::Borrowed(&layout),
        };
        let outer = place.clone().element(Index::Constant(1));
        assert_eq!(outer.offset.text(), "72u");
        assert_eq!(*outer.layout, array(f32_(), 16, Some(3)));
        let inner = outer.element(Index::Dynamic("i"));
        assert_eq!(inner.offset.text(), "(72u + 16u * i)");
        assert_eq!(*inner.layout, f32_());
        // A scalar has no elements: the place stays.
        assert_eq!(inner.clone().element(Index::Constant(2)), inner);
    }

    #[test]
    fn a_huge_constant_index_saturates_instead_of_overflowing() {
        let layout = array(f32_(), u64::MAX / 2, None);
        let place = BytePlace {
            buffer: (),
            offset: ByteOffset::constant(u64::MAX - 1),
            layout: Cow::Borrowed(&layout),
        };
        let element = place.element(Index::Constant(u32::MAX));
        assert_eq!(element.offset.constant, u64::MAX);
    }
}
