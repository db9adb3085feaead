//! A transformer's shape ([`ModelConfig`]) and what it holds: parameters
//! (total and active), weight bytes and the KV cache per token, by the
//! formulas of the book's transformer chapter.

use crate::{CoreError, DType};

/// The shape of a decoder-only transformer, in the book's symbols. Sizes
/// are `f64` (whole numbers, checked by [`ModelConfig::check`]) so that
/// products of them never overflow.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelConfig {
    /// L: layers.
    pub layers: f64,
    /// D: model width (hidden size).
    pub d_model: f64,
    /// F: the MLP's hidden width (per expert for a mixture of experts).
    pub d_ff: f64,
    /// N: query heads.
    pub heads: f64,
    /// K: key/value heads (K < N is grouped-query attention; K divides N).
    pub kv_heads: f64,
    /// H: dimension of a head.
    pub head_dim: f64,
    /// V: vocabulary size.
    pub vocab: f64,
    /// One D×V matrix for the embedding and the output projection.
    pub tied: bool,
    /// A gated MLP (SwiGLU, GeGLU): three D×F matrices, else two.
    pub gated: bool,
    /// E: experts per MoE layer (1 for a dense model).
    pub experts: f64,
    /// k: experts each token uses (1 for a dense model).
    pub active: f64,
}

/// The largest size a model field accepts: beyond it the products leave
/// any meaning (and, far beyond, floating point's range).
pub const MAX_DIM: f64 = 1e9;

impl ModelConfig {
    /// Whether a field is whole and in range; the error names the field.
    pub fn check(&self) -> Result<(), CoreError> {
        let dims: [(&str, f64); 9] = [
            ("layers (L)", self.layers),
            ("width (D)", self.d_model),
            ("MLP width (F)", self.d_ff),
            ("query heads (N)", self.heads),
            ("KV heads (K)", self.kv_heads),
            ("head dimension (H)", self.head_dim),
            ("vocabulary (V)", self.vocab),
            ("experts (E)", self.experts),
            ("active experts (k)", self.active),
        ];
        for (name, v) in dims {
            if !v.is_finite() || v.fract() != 0.0 || !(1.0..=MAX_DIM).contains(&v) {
                return Err(CoreError::Invalid(format!(
                    "{name}: a whole number from 1 to {}",
                    crate::format::sci(MAX_DIM)
                )));
            }
        }
        if self.kv_heads > self.heads {
            return Err(CoreError::Invalid(
                "KV heads (K): at most the query heads (N); K = N is multi-head attention"
                    .to_string(),
            ));
        }
        if self.heads % self.kv_heads != 0.0 {
            return Err(CoreError::Invalid(
                "KV heads (K): must divide the query heads (N), each KV head serving N/K of them"
                    .to_string(),
            ));
        }
        if self.active > self.experts {
            return Err(CoreError::Invalid(
                "active experts (k): at most the experts (E)".to_string(),
            ));
        }
        Ok(())
    }

    /// Whether it is a mixture of experts (E > 1).
    pub fn is_moe(&self) -> bool {
        self.experts > 1.0
    }

    /// G = N / K: query heads per KV head.
    pub fn group(&self) -> f64 {
        self.heads / self.kv_heads
    }

    /// Matrices in one expert's MLP: 3 gated, 2 not.
    pub fn mlp_matrices(&self) -> f64 {
        if self.gated {
            3.0
        } else {
            2.0
        }
    }

    /// Parameters of one expert's MLP: 3DF gated, 2DF not.
    pub fn expert_params(&self) -> f64 {
        self.mlp_matrices() * self.d_model * self.d_ff
    }

    /// Attention parameters of one layer: Q and O (2DNH), K and V (2DKH).
    pub fn attention_params(&self) -> f64 {
        2.0 * self.d_model * self.heads * self.head_dim
            + 2.0 * self.d_model * self.kv_heads * self.head_dim
    }

    /// The router of an MoE layer (D·E), 0 for a dense model.
    pub fn router_params(&self) -> f64 {
        if self.is_moe() {
            self.d_model * self.experts
        } else {
            0.0
        }
    }

    /// Embedding parameters: D·V, twice if untied.
    pub fn embedding_params(&self) -> f64 {
        self.d_model * self.vocab * if self.tied { 1.0 } else { 2.0 }
    }

    /// Parameters of one layer with `experts` MLPs: experts × (3DF or
    /// 2DF) + 2DNH + 2DKH + two norms (2D) + the router.
    fn layer_params(&self, experts: f64) -> f64 {
        experts * self.expert_params()
            + self.attention_params()
            + 2.0 * self.d_model
            + self.router_params()
    }

    /// P: every parameter, L·(E·3DF + 2DNH + 2DKH + 2D + D·E) + D·V·(1 or 2).
    pub fn params(&self) -> f64 {
        self.layers * self.layer_params(self.experts) + self.embedding_params()
    }

    /// P_act: the parameters one token's FLOPs touch: k experts instead of E.
    pub fn active_params(&self) -> f64 {
        self.layers * self.layer_params(self.active) + self.embedding_params()
    }

    /// The input embedding table's parameters when it is its own matrix
    /// (untied: D·V), else 0. It is a lookup: no FLOPs, and a step reads
    /// only the rows of its tokens.
    pub fn input_table_params(&self) -> f64 {
        if self.tied {
            0.0
        } else {
            self.d_model * self.vocab
        }
    }

    /// P_read: the parameters a step reads when every expert is used: P
    /// without the untied input table, of which a step reads only its
    /// tokens' rows.
    pub fn read_params(&self) -> f64 {
        self.params() - self.input_table_params()
    }

    /// The parameters one token multiplies: P_act without the input
    /// embedding table (the output projection, D·V, is a matmul and
    /// counts). A token's weight matmuls are 2 × this many FLOPs.
    pub fn matmul_params(&self) -> f64 {
        self.active_params() - self.input_table_params()
    }

    /// KV cache bytes per token: 2·L·K·H × the KV type's bytes (K and V).
    pub fn kv_bytes_per_token(&self, kv: DType) -> f64 {
        2.0 * self.layers * self.kv_heads * self.head_dim * kv.bytes()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    fn llama3_8b() -> ModelConfig {
        ModelConfig {
            layers: 32.0,
            d_model: 4096.0,
            d_ff: 14336.0,
            heads: 32.0,
            kv_heads: 8.0,
            head_dim: 128.0,
            vocab: 128256.0,
            tied: false,
            gated: true,
            experts: 1.0,
            active: 1.0,
        }
    }

    #[test]
    fn the_references_two_checks() {
        // LLaMA-3-8B: 8.03e9 parameters; 131,072 bytes of bf16 KV per token.
        let m = llama3_8b();
        assert_eq!(m.params(), 8_030_257_152.0);
        assert_eq!(m.active_params(), m.params());
        // The input table is a lookup: a token multiplies P − D·V.
        assert_eq!(m.matmul_params(), 8_030_257_152.0 - 4096.0 * 128_256.0);
        assert_eq!(m.kv_bytes_per_token(DType::Bf16), 131_072.0);
        assert_eq!(m.kv_bytes_per_token(DType::Int8), 65_536.0);
    }

    #[test]
    fn fields_are_checked() {
        let mut m = llama3_8b();
        m.kv_heads = 64.0;
        assert!(m
            .check()
            .unwrap_err()
            .to_string()
            .contains("at most the query heads"));
        m.kv_heads = 5.0;
        assert!(m.check().unwrap_err().to_string().contains("divide"));
        m.kv_heads = 8.0;
        m.layers = 0.0;
        assert!(m.check().unwrap_err().to_string().starts_with("layers (L)"));
        m.layers = 1e30;
        assert!(m.check().is_err());
        m.layers = 32.0;
        m.active = 2.0;
        assert!(m
            .check()
            .unwrap_err()
            .to_string()
            .contains("at most the experts"));
    }
}
