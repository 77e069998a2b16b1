//! The state of the “Why position?” view (`view=attention`): the permutation demo.

use crate::state::params::{read_choice, read_index_list, Notices};
use crate::state::about::{panel, About};

/// This view in the registry: its title, panels and controls.
pub const ABOUT: About = About {
    title: "Why position?",
    panels: &[panel("permutation-demo", "Shuffle the sentence")],
    controls: "pe causal",
};

/// The positional encoding compared against none in the permutation demo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DemoEncoding {
    #[default]
    Sinusoidal,
    Rope,
}

impl DemoEncoding {
    pub const OPTIONS: [(&'static str, DemoEncoding); 2] = [
        ("sinusoidal", DemoEncoding::Sinusoidal),
        ("rope", DemoEncoding::Rope),
    ];

    pub fn name(self) -> &'static str {
        match self {
            DemoEncoding::Sinusoidal => "sinusoidal",
            DemoEncoding::Rope => "rope",
        }
    }

    /// The name a student reads (legend, table caption).
    pub fn label(self) -> &'static str {
        match self {
            DemoEncoding::Sinusoidal => "sinusoidal",
            DemoEncoding::Rope => "RoPE",
        }
    }
}

/// Controls of the "why position?" view.
#[derive(Clone, Debug, PartialEq)]
pub struct AttentionState {
    pub pe: DemoEncoding,
    /// `causal=1`: each token attends only to itself and the tokens before it.
    pub causal: bool,
    /// The token order: a permutation of `0..tokens`.
    pub order: Vec<usize>,
}

/// Number of tokens in the demo sentence.
pub const DEMO_TOKENS: usize = 5;

/// "the man bit the dog": the original sentence with its nouns swapped.
pub const DEMO_DEFAULT_ORDER: [usize; DEMO_TOKENS] = [0, 4, 2, 3, 1];

impl Default for AttentionState {
    fn default() -> Self {
        AttentionState {
            pe: DemoEncoding::Sinusoidal,
            causal: false,
            order: DEMO_DEFAULT_ORDER.to_vec(),
        }
    }
}

impl AttentionState {
    pub fn read(get: &dyn Fn(&str) -> Option<String>, notices: &mut Notices) -> AttentionState {
        let pe = read_choice(
            "pe",
            get("pe").as_deref(),
            &DemoEncoding::OPTIONS,
            DemoEncoding::Sinusoidal,
            notices,
        );
        let order = match get("order") {
            None => DEMO_DEFAULT_ORDER.to_vec(),
            Some(raw) => {
                let list = read_index_list("order", &raw, DEMO_TOKENS - 1, DEMO_TOKENS, notices);
                if list.len() == DEMO_TOKENS {
                    // Equal words swapped are the same sentence, and one order.
                    crate::encoding::attention::canonical_order(&list)
                } else {
                    notices.push(
                        "order",
                        format!(
                            "must list each of 0…{} once; using the original order.",
                            DEMO_TOKENS - 1
                        ),
                    );
                    (0..DEMO_TOKENS).collect()
                }
            }
        };
        let causal = read_choice(
            "causal",
            get("causal").as_deref(),
            &[("0", false), ("1", true)],
            false,
            notices,
        );
        AttentionState { pe, causal, order }
    }

    pub fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("pe", self.pe.name().to_string()));
        if self.causal {
            out.push(("causal", "1".to_string()));
        }
        let order: Vec<String> = self.order.iter().map(|v| v.to_string()).collect();
        out.push(("order", order.join(",")));
    }
}
