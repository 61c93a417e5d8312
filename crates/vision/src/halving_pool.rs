//! The cell model's max-pools, run by a loop of their own.
//!
//! The model halves its feature maps three times with a 2x2 max-pool of
//! stride 2. tract runs a 2x2 pool of stride 1 in a vector loop, but one of
//! stride 2 in its general loop, window by window with a bounds check at
//! every tap: about 40 % of the classifier's time on a 12 MP photo's grid,
//! for three small layers. [`speed_up`] puts [`HalvingMaxPool`] in place of
//! each such pool of an optimised model: the same maximum of the same four
//! values in the same order (`f32::max` folded from `f32::MIN`, as tract
//! folds), so the same probabilities to the bit. A pool of any other shape
//! keeps tract's own.

use tract_onnx::prelude::*;
use tract_onnx::tract_core::internal::*;
use tract_onnx::tract_core::ops::cnn::{OptMaxPool, PaddingSpec};
use tract_onnx::tract_core::ops::nn::DataFormat;

/// A 2x2 max-pool of stride 2 over `f32` maps `[n, c, h, w]`, without
/// padding: output `[n, c, h / 2, w / 2]`, a last odd row or column left
/// out as a pool without padding leaves it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct HalvingMaxPool;

impl Op for HalvingMaxPool {
    fn name(&self) -> StaticName {
        "HalvingMaxPool".into()
    }

    op_as_typed_op!();
}

impl EvalOp for HalvingMaxPool {
    op_out_of_plan!();

    fn eval(&self, _ctx: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let input = args_1!(inputs);
        let &[n, c, h, w] = input.shape() else {
            bail!("HalvingMaxPool takes [n, c, h, w], got {:?}", input.shape());
        };
        let (oh, ow) = (h / 2, w / 2);
        let plain = input.try_as_plain_ram()?;
        let maps = plain.as_slice::<f32>()?;
        let mut output = Tensor::zero::<f32>(&[n, c, oh, ow])?;
        {
            let mut out_plain = output.try_as_plain_ram_mut()?;
            let out = out_plain.as_slice_mut::<f32>()?;
            if oh > 0 && ow > 0 {
                for (map, pooled) in maps.chunks_exact(h * w).zip(out.chunks_exact_mut(oh * ow)) {
                    halve(map, w, pooled, ow);
                }
            }
        }
        Ok(tvec!(output.into_tvalue()))
    }
}

/// Pools one map of rows of `w` into `pooled`, rows of `ow`.
fn halve(map: &[f32], w: usize, pooled: &mut [f32], ow: usize) {
    for (y, row) in pooled.chunks_exact_mut(ow).enumerate() {
        let top = &map[2 * y * w..][..2 * ow];
        let bottom = &map[(2 * y + 1) * w..][..2 * ow];
        for ((out, t), b) in row
            .iter_mut()
            .zip(top.chunks_exact(2))
            .zip(bottom.chunks_exact(2))
        {
            // tract's order: row by row, each left to right.
            *out = f32::MIN.max(t[0]).max(t[1]).max(b[0]).max(b[1]);
        }
    }
}

impl TypedOp for HalvingMaxPool {
    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        let shape = inputs[0]
            .shape
            .as_concrete()
            .context("HalvingMaxPool needs a concrete shape")?;
        let &[n, c, h, w] = shape else {
            bail!("HalvingMaxPool takes [n, c, h, w], got {shape:?}");
        };
        Ok(tvec!(f32::fact([n, c, h / 2, w / 2])))
    }

    as_op!();
}

/// True when `pool` is the one [`HalvingMaxPool`] computes: `f32` maps of
/// concrete shape `[n, c, h, w]`, a 2x2 window, stride 2, no dilation, no
/// padding, no index output.
fn halves(pool: &OptMaxPool, input: &TypedFact) -> bool {
    let spec = &pool.pool_spec;
    let no_padding = match &spec.padding {
        PaddingSpec::Valid => true,
        PaddingSpec::Explicit(before, after) => before.iter().chain(after).all(|&p| p == 0),
        PaddingSpec::ExplicitOnnxPool(before, after, ceil) => {
            !ceil && before.iter().chain(after).all(|&p| p == 0)
        }
        PaddingSpec::SameUpper | PaddingSpec::SameLower => false,
    };
    pool.with_index_outputs.is_none()
        && spec.data_format == DataFormat::NCHW
        && spec.kernel_shape[..] == [2, 2]
        && spec.strides.as_deref() == Some(&[2, 2][..])
        && spec
            .dilations
            .as_ref()
            .is_none_or(|d| d.iter().all(|&d| d == 1))
        && no_padding
        && input.datum_type == f32::datum_type()
        && input.shape.as_concrete().is_some_and(|s| s.len() == 4)
}

/// Puts a [`HalvingMaxPool`] in place of each of `model`'s max-pools it
/// computes; returns how many.
pub(crate) fn speed_up(model: &mut TypedModel) -> TractResult<usize> {
    let mut replaced = 0;
    for id in 0..model.nodes().len() {
        let node = model.node(id);
        let Some(pool) = node.op_as::<OptMaxPool>() else {
            continue;
        };
        if node.inputs.len() != 1 || !halves(pool, model.outlet_fact(node.inputs[0])?) {
            continue;
        }
        model.node_mut(id).op = Box::new(HalvingMaxPool);
        replaced += 1;
    }
    Ok(replaced)
}
