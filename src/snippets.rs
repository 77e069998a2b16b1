//! "Copy as NumPy": Python that regenerates a panel's data with NumPy alone.

use crate::encoding::Layout;
use crate::views::sinusoidal::state::SinusoidalState;

/// The lines that build `pe`, the `(seq_len, d_model)` sinusoidal table of the state.
pub fn sinusoidal_table(s: &SinusoidalState) -> String {
    let assemble = match s.layout {
        Layout::Interleaved => {
            "pe = np.zeros((seq_len, d_model))\npe[:, 0::2] = np.sin(angle)\npe[:, 1::2] = np.cos(angle[:, : d_model // 2])"
        }
        Layout::Concat => {
            "pe = np.concatenate([np.sin(angle), np.cos(angle[:, : d_model // 2])], axis=1)"
        }
    };
    format!(
        "import numpy as np\n\nseq_len, d_model, base = {}, {}, {:?}\npos = np.arange(seq_len)[:, None]\ni = np.arange((d_model + 1) // 2)[None, :]\nangle = pos / base ** (2 * i / d_model)\n{assemble}\n",
        s.seq_len, s.d_model, s.base
    )
}

/// Snippet for one panel of the Sinusoidal view.
pub fn sinusoidal_panel(s: &SinusoidalState, panel: &str) -> String {
    let table = sinusoidal_table(s);
    let tail = match panel {
        "pe-curves" => format!("curves = pe[:, {:?}]  # one column per curve\n", s.curve_columns()),
        "pe-spectrum" => "omega = base ** (-2 * np.arange((d_model + 1) // 2) / d_model)\nwavelength = 2 * np.pi / omega\n".to_string(),
        "pe-similarity" => format!("similarity = pe @ pe.T\ncurve = similarity[{}]\n", s.p0_in_range()),
        "pe-offset" => format!(
            "delta, p0 = {}, {}\nomega = base ** (-2 * np.arange((d_model + 1) // 2) / d_model)\n# PE[p0 + delta] = M(delta) @ PE[p0]: each (sin, cos) pair turned by delta * omega_i\n",
            s.offset,
            s.p0_in_range()
        ),
        _ => String::new(),
    };
    format!("{table}{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_carry_the_parameters() {
        let s = SinusoidalState {
            seq_len: 50,
            d_model: 7,
            base: 100.0,
            layout: Layout::Concat,
            ..SinusoidalState::default()
        };
        let text = sinusoidal_panel(&s, "pe-similarity");
        assert!(text.contains("seq_len, d_model, base = 50, 7, 100.0"));
        assert!(text.contains("np.concatenate"));
        assert!(text.contains("pe @ pe.T"));
    }
}
