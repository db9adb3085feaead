//! The model presets, each number from the model's published configuration
//! (its `config.json` on Hugging Face, which [`Preset::source`] names), with
//! the publisher's own parameter count beside ours ([`Preset::published`]).

use super::config::ModelConfig;

/// A published model.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// Link id (`model=llama3-70b`).
    pub id: &'static str,
    /// Its name.
    pub name: &'static str,
    /// Its shape.
    pub config: ModelConfig,
    /// The longest context it was trained for (max_position_embeddings).
    pub max_context: f64,
    /// The parameter count its publisher gives.
    pub published: &'static str,
    /// Where the numbers come from.
    pub source: &'static str,
}

/// A dense, gated (SwiGLU), untied model: layers, d_model, d_ff, heads,
/// KV heads, head dimension, vocabulary.
#[allow(clippy::too_many_arguments)]
pub(crate) const fn dense(
    layers: f64,
    d: f64,
    f: f64,
    n: f64,
    k: f64,
    h: f64,
    v: f64,
) -> ModelConfig {
    ModelConfig {
        layers,
        d_model: d,
        d_ff: f,
        heads: n,
        kv_heads: k,
        head_dim: h,
        vocab: v,
        tied: false,
        gated: true,
        experts: 1.0,
        active: 1.0,
    }
}

/// LLaMA-3-8B's shape: the default model, and where a custom one starts.
pub const LLAMA3_8B: ModelConfig = dense(32.0, 4096.0, 14336.0, 32.0, 8.0, 128.0, 128256.0);

/// Every preset, smallest first.
pub const PRESETS: [Preset; 6] = [
    Preset {
        id: "llama3-8b",
        name: "LLaMA-3-8B",
        config: LLAMA3_8B,
        max_context: 8192.0,
        published: "8.03B",
        source: "huggingface.co/meta-llama/Meta-Llama-3-8B config.json (head_dim = D/N)",
    },
    Preset {
        id: "llama2-13b",
        name: "LLaMA-2-13B",
        // Multi-head attention: K = N = 40.
        config: dense(40.0, 5120.0, 13824.0, 40.0, 40.0, 128.0, 32000.0),
        max_context: 4096.0,
        published: "13B",
        source: "huggingface.co/meta-llama/Llama-2-13b-hf config.json (num_key_value_heads 40: no grouped-query attention)",
    },
    Preset {
        id: "mixtral-8x7b",
        name: "Mixtral-8x7B",
        config: ModelConfig {
            layers: 32.0,
            d_model: 4096.0,
            d_ff: 14336.0,
            heads: 32.0,
            kv_heads: 8.0,
            head_dim: 128.0,
            vocab: 32000.0,
            tied: false,
            gated: true,
            experts: 8.0,
            active: 2.0,
        },
        max_context: 32768.0,
        published: "46.7B total, 12.9B active",
        source: "huggingface.co/mistralai/Mixtral-8x7B-v0.1 config.json (intermediate_size is per expert; every layer is MoE)",
    },
    Preset {
        id: "llama3-70b",
        name: "LLaMA-3-70B",
        config: dense(80.0, 8192.0, 28672.0, 64.0, 8.0, 128.0, 128256.0),
        max_context: 8192.0,
        published: "70.6B",
        source: "huggingface.co/meta-llama/Meta-Llama-3-70B config.json (head_dim = D/N)",
    },
    Preset {
        id: "qwen3-235b-a22b",
        name: "Qwen3-235B-A22B",
        config: ModelConfig {
            layers: 94.0,
            d_model: 4096.0,
            // moe_intermediate_size: every layer is MoE.
            d_ff: 1536.0,
            heads: 64.0,
            kv_heads: 4.0,
            // Explicit in the config, not D/N (64).
            head_dim: 128.0,
            vocab: 151936.0,
            tied: false,
            gated: true,
            experts: 128.0,
            active: 8.0,
        },
        max_context: 40960.0,
        published: "235B total, 22B active",
        source: "huggingface.co/Qwen/Qwen3-235B-A22B config.json (moe_intermediate_size 1536, head_dim 128, no dense layers)",
    },
    Preset {
        id: "llama31-405b",
        name: "LLaMA-3.1-405B",
        config: dense(126.0, 16384.0, 53248.0, 128.0, 8.0, 128.0, 128256.0),
        max_context: 131072.0,
        published: "405B",
        source: "huggingface.co/meta-llama/Llama-3.1-405B config.json (8 KV heads)",
    },
];

/// The preset with link id `id`.
pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    /// Every preset's count by the book's formula against its publisher's,
    /// within 1% (they round; the formula leaves out the final norm and
    /// Qwen3's per-head norms).
    #[test]
    fn counts_match_the_published_ones() {
        let cases: [(&str, f64, f64); 6] = [
            ("llama3-8b", 8.03e9, 8.03e9),
            ("llama2-13b", 13e9, 13e9),
            ("mixtral-8x7b", 46.7e9, 12.9e9),
            ("llama3-70b", 70.6e9, 70.6e9),
            ("qwen3-235b-a22b", 235e9, 22e9),
            ("llama31-405b", 405e9, 405e9),
        ];
        for (id, total, active) in cases {
            let m = &preset(id).unwrap().config;
            m.check().unwrap();
            let (p, a) = (m.params(), m.active_params());
            assert!(
                (p - total).abs() / total < 0.01,
                "{id}: {p} against {total}"
            );
            assert!(
                (a - active).abs() / active < 0.01,
                "{id}: {a} against {active}"
            );
        }
        // Exact, by hand: Mixtral's 8 experts and their router.
        let m = &preset("mixtral-8x7b").unwrap().config;
        let layer = 8.0 * 3.0 * 4096.0 * 14336.0
            + 2.0 * 4096.0 * 32.0 * 128.0
            + 2.0 * 4096.0 * 8.0 * 128.0
            + 2.0 * 4096.0
            + 4096.0 * 8.0;
        assert_eq!(m.params(), 32.0 * layer + 2.0 * 4096.0 * 32000.0);
        assert_eq!(m.params(), 46_702_788_608.0);
        assert_eq!(m.active_params(), 12_879_921_152.0);
    }
}
