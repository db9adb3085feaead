//! The Learn page's steps' calculator states, each built from its
//! controls' values: a matmul on the default chip, then the step's own
//! change (a bandwidth, a second level, a data type, a network).

use crate::hardware::preset;
use crate::op::{Operation, Shortcut};
use crate::small::map_of;
use crate::state::{default_batch_dim, CalcState, DEFAULT_CHIP};
use crate::{CoreError, DType, LevelKind};

/// A state on the default chip for operation `op` with the given sizes.
fn state_of(op: &Operation, sizes: &[(&str, f64)]) -> CalcState {
    CalcState {
        op: op.notation(),
        sizes: map_of(sizes.iter().map(|(k, v)| (k.to_string(), *v))),
        batch_dim: default_batch_dim(op),
        level2: None,
        ..CalcState::default()
    }
}

/// The matmul `shortcut` with batch `b` and D = F = `df`; `weights`
/// replaces the second operand's type.
pub(in crate::learn) fn matmul(
    shortcut: Shortcut,
    b: f64,
    df: f64,
    weights: Option<DType>,
) -> Result<CalcState, CoreError> {
    let mut op = shortcut.operation();
    if let (Some(w), Some(y)) = (weights, op.inputs.get_mut(1)) {
        y.dtype = w;
    }
    Ok(state_of(&op, &[("B", b), ("D", df), ("F", df)]))
}

pub(super) fn intensity_state(v: &[f64]) -> Result<CalcState, CoreError> {
    Ok(match v[0] as u32 {
        0 => state_of(&Shortcut::DotProduct.operation(), &[("N", 1e6)]),
        2 => matmul(Shortcut::MixedMatmul, 256.0, 4096.0, None)?,
        3 => state_of(
            &Shortcut::BatchedMatmul.operation(),
            &[("B", 256.0), ("D", 4096.0), ("F", 4096.0)],
        ),
        _ => matmul(Shortcut::Matmul, 256.0, 4096.0, None)?,
    })
}

pub(super) fn bandwidth_state(v: &[f64]) -> Result<CalcState, CoreError> {
    let mut s = matmul(Shortcut::Matmul, 256.0, 4096.0, None)?;
    if v[0] != 1.0 {
        let chip = preset(DEFAULT_CHIP).ok_or_else(|| no_chip(DEFAULT_CHIP))?;
        s.bw_overrides = vec![(LevelKind::Hbm, chip.bandwidth(LevelKind::Hbm)? * v[0])];
    }
    Ok(s)
}

pub(super) fn levels_state(v: &[f64]) -> Result<CalcState, CoreError> {
    let mut s = matmul(Shortcut::Matmul, v[1], 4096.0, None)?;
    let (first, second) = if v[0] == 1.0 {
        (LevelKind::Vmem, LevelKind::Hbm)
    } else {
        (LevelKind::Hbm, LevelKind::Vmem)
    };
    s.level1 = first;
    s.level2 = Some(second);
    Ok(s)
}

fn dtype_of(i: f64, names: &[DType]) -> DType {
    names.get(i as usize).copied().unwrap_or(DType::Bf16)
}

pub(super) fn dtype_state(v: &[f64]) -> Result<CalcState, CoreError> {
    let weights = dtype_of(v[0], &[DType::Bf16, DType::Int8, DType::Int4]);
    let math = dtype_of(v[1], &[DType::Bf16, DType::Int8]);
    let mut s = matmul(Shortcut::Matmul, 256.0, 4096.0, Some(weights))?;
    if math == DType::Int8 {
        // The activations are quantised too: the math reads int8 inputs.
        let mut op = Operation::parse(&s.op)?;
        if let Some(x) = op.inputs.get_mut(0) {
            x.dtype = DType::Int8;
        }
        s.op = op.notation();
        s.compute = Some(DType::Int8);
    } else {
        s.compute = Some(DType::Bf16);
    }
    Ok(s)
}

/// LLaMA-3-8B's MLP matrix in a decode step: B sequences, one token each,
/// times W[D, F] with D = 4096, F = 14336, the weights as chosen.
pub(super) fn model_state(v: &[f64]) -> Result<CalcState, CoreError> {
    let weights = dtype_of(v[1], &[DType::Bf16, DType::Int8]);
    let mut s = matmul(Shortcut::Matmul, v[0], 4096.0, Some(weights))?;
    s.sizes.insert("F".to_string(), 14336.0);
    s.compute = Some(DType::Bf16);
    Ok(s)
}

pub(super) fn network_state(v: &[f64]) -> Result<CalcState, CoreError> {
    let mut s = matmul(Shortcut::Matmul, 256.0, 4096.0, None)?;
    s.sizes.insert("D".to_string(), v[1]);
    s.chips = v[0] as u32;
    s.shard = Some("D".to_string());
    Ok(s)
}

/// Step 8's split with the partials summed by a ring all-reduce (Part 3's
/// AllReduce), over `v[0]` chips with D = `v[1]`.
pub(super) fn allreduce_state(v: &[f64]) -> Result<CalcState, CoreError> {
    let mut s = network_state(v)?;
    s.collective = crate::network::Collective::Ring;
    Ok(s)
}

fn no_chip(id: &str) -> CoreError {
    CoreError::Invalid(format!("the chip {id} is not in the catalogue"))
}
