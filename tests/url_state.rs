//! The URL parser: exact round trips, clamping with notices, and garbage that never panics.
#![cfg(not(target_arch = "wasm32"))]

use pe_lab::encoding::Layout;
use pe_lab::state::{AppState, ThemeChoice, View};

#[test]
fn default_state_round_trips() {
    let state = AppState::default();
    let (back, notices) = AppState::from_query(&state.to_query());
    assert_eq!(back, state);
    assert!(notices.is_empty());
}

#[test]
fn every_control_round_trips() {
    let q = "?view=sinusoidal&seq_len=2048&d_model=513&base=123.456&layout=concat&cols=0,7,512&p0=1000&offset=33&theme=dark&embed=1&panel=pe-curves&controls=0";
    let (state, notices) = AppState::from_query(q);
    assert!(notices.is_empty(), "{notices:?}");
    let s = &state.sinusoidal;
    assert_eq!(
        (s.seq_len, s.d_model, s.base, s.layout),
        (2048, 513, 123.456, Layout::Concat)
    );
    assert_eq!(s.cols.as_deref(), Some(&[0, 7, 512][..]));
    assert_eq!((s.p0, s.offset), (1000, 33));
    assert_eq!(state.theme, ThemeChoice::Dark);
    assert!(state.embed && !state.show_controls);
    assert_eq!(state.panel.as_deref(), Some("pe-curves"));
    let (again, _) = AppState::from_query(&state.to_query());
    assert_eq!(again, state);
}

#[test]
fn out_of_range_values_are_clamped_with_notices() {
    let (state, notices) =
        AppState::from_query("seq_len=99999&d_model=0&base=1&layout=diagonal&p0=-5&cols=1,2,9999");
    let s = &state.sinusoidal;
    assert_eq!((s.seq_len, s.d_model, s.base), (8192, 1, 2.0));
    assert_eq!(s.layout, Layout::Interleaved);
    assert_eq!(s.p0, 0);
    assert_eq!(s.cols.as_deref(), Some(&[][..]));
    let named: Vec<&str> = notices.items.iter().map(|n| n.param.as_str()).collect();
    for p in ["seq_len", "d_model", "base", "layout", "p0", "cols"] {
        assert!(named.contains(&p), "no notice for {p}: {named:?}");
    }
}

#[test]
fn p0_is_clamped_to_the_sequence() {
    let (state, notices) = AppState::from_query("seq_len=10&p0=50");
    assert_eq!(state.sinusoidal.p0, 9);
    assert_eq!(notices.items.len(), 1);
}

#[test]
fn unknown_parameters_are_ignored_silently() {
    let (state, notices) = AppState::from_query("utm_source=x&foo=bar&seq_len=64");
    assert_eq!(state.sinusoidal.seq_len, 64);
    assert!(notices.is_empty());
}

#[test]
fn garbage_never_panics_and_always_gives_a_valid_state() {
    let long = "9".repeat(100_000);
    let many: String = (0..5000).map(|n| format!("seq_len={n}&")).collect();
    let inputs = [
        "".to_string(),
        "?".to_string(),
        "&&&==&=".to_string(),
        "seq_len=NaN&d_model=inf&base=-inf".to_string(),
        "seq_len=1e400&base=1e-400".to_string(),
        format!("seq_len={long}&cols={long}"),
        many,
        "view=%FF%FE&panel=%00&layout=%E2%9C%93".to_string(),
        "cols=,,,,&p0=&offset=0x10".to_string(),
        "seq_len=٣&d_model=１２".to_string(),
    ];
    for q in &inputs {
        let (state, _) = AppState::from_query(q);
        let s = &state.sinusoidal;
        assert!((1..=8192).contains(&s.seq_len));
        assert!((1..=4096).contains(&s.d_model));
        assert!(s.base.is_finite() && (2.0..=1e7).contains(&s.base));
        assert!(s.p0 < s.seq_len);
        let (again, _) = AppState::from_query(&state.to_query());
        assert_eq!(again, state, "round trip of {:.40}", q);
    }
}

#[test]
fn pseudo_random_strings_never_panic() {
    // A small deterministic generator: xorshift over bytes drawn from a hostile alphabet.
    let alphabet: Vec<char> = "seq_lnd_mobaypt0=&%,.-+eE9NnIi ✓\u{0}\u{202e}"
        .chars()
        .collect();
    let mut x: u64 = 0x9e3779b97f4a7c15;
    for _ in 0..2000 {
        let mut q = String::new();
        for _ in 0..(x % 80) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            q.push(alphabet[(x % alphabet.len() as u64) as usize]);
        }
        let (state, _) = AppState::from_query(&q);
        assert!(state.sinusoidal.p0 < state.sinusoidal.seq_len);
        x = x.wrapping_add(1);
    }
}

#[test]
fn rope_and_scaling_states_round_trip() {
    use pe_lab::encoding::rope::{Method, PairLayout};
    use pe_lab::state::View;
    use pe_lab::views::rope::state::QkSource;
    let q = "view=rope&head_dim=4&theta=500000&layout=interleaved&partial=0.5&qk=custom&q=1,0,2,0.5&k=0,1,1,1&seed=7&max_dist=4096&m=0,100&pos=33";
    let (state, notices) = AppState::from_query(q);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(state.view, View::Rope);
    let r = &state.rope;
    assert_eq!(
        (r.head_dim, r.theta, r.layout, r.partial),
        (4, 500000.0, PairLayout::Interleaved, 0.5)
    );
    assert_eq!(
        (r.qk, r.seed, r.max_dist, r.pos),
        (QkSource::Custom, 7, 4096, 33)
    );
    assert_eq!(r.vectors().0, vec![1.0, 0.0, 2.0, 0.5]);
    assert_eq!(AppState::from_query(&state.to_query()).0, state);

    let q = "view=scaling&method=yarn,none,llama3&head_dim=96&theta=10000&partial=0.75&factor=8&orig_ctx=2048&seq_len=9000&beta_fast=16&beta_slow=2&attn_factor=1.5&mscale=1&mscale_all_dim=0.5&truncate=false&low_freq_factor=2&high_freq_factor=8";
    let (state, notices) = AppState::from_query(q);
    assert!(notices.is_empty(), "{notices:?}");
    let s = &state.scaling;
    assert_eq!(s.methods, vec![Method::None, Method::Yarn, Method::Llama3]);
    assert_eq!(
        (s.head_dim, s.partial, s.factor, s.orig_ctx, s.seq_len),
        (96, 0.75, 8.0, 2048, 9000)
    );
    assert_eq!(
        (s.attn_factor, s.mscale, s.mscale_all_dim, s.truncate),
        (Some(1.5), Some(1.0), Some(0.5), false)
    );
    assert_eq!(AppState::from_query(&state.to_query()).0, state);
}

#[test]
fn rope_inputs_are_clamped_with_notices() {
    let (state, notices) =
        AppState::from_query("view=rope&head_dim=63&qk=custom&q=1,2&max_dist=1e9&m=x");
    assert_eq!(state.rope.head_dim, 62);
    assert_eq!(state.rope.max_dist, 131072);
    assert_eq!(state.rope.qk, pe_lab::views::rope::state::QkSource::Ones);
    let named: Vec<&str> = notices.items.iter().map(|n| n.param.as_str()).collect();
    for p in ["head_dim", "q", "qk", "max_dist", "m"] {
        assert!(named.contains(&p), "no notice for {p}: {named:?}");
    }
    let (state, notices) = AppState::from_query("view=scaling&method=warp,turbo&factor=0");
    assert_eq!(
        state.scaling.methods,
        vec![pe_lab::encoding::rope::Method::None]
    );
    assert_eq!(state.scaling.factor, 1.0);
    assert!(notices.items.len() >= 3);
}

#[test]
fn share_links_keep_the_state_and_set_the_embed_parameters() {
    use pe_lab::state::url::iframe_snippet;
    let (s, _) = AppState::from_query(
        "?view=rope&head_dim=32&theta=500&embed=1&panel=rope-decay&controls=0",
    );
    // The permalink is the whole page: no embed parameters.
    let permalink = s.permalink_query();
    assert!(permalink.contains("head_dim=32") && permalink.contains("theta=500"));
    assert!(
        !permalink.contains("embed")
            && !permalink.contains("panel")
            && !permalink.contains("controls")
    );
    let (back, notices) = AppState::from_query(&permalink);
    assert!(notices.is_empty());
    assert_eq!(
        (back.rope.head_dim, back.embed, back.panel.clone()),
        (32, false, None)
    );
    // An embed link restores the same state, one panel, controls as asked.
    let embed = s.embed_query("rope-angles", true);
    let (e, _) = AppState::from_query(&embed);
    assert_eq!(
        (e.embed, e.panel.as_deref(), e.show_controls),
        (true, Some("rope-angles"), true)
    );
    assert_eq!(e.rope, s.rope);
    let (e, _) = AppState::from_query(&s.embed_query("rope-angles", false));
    assert!(!e.show_controls);
    // A panel of another view embeds the whole view.
    assert_eq!(
        AppState::from_query(&s.embed_query("pe-heatmap", true))
            .0
            .panel,
        None
    );
    // The snippet escapes the URL for the attribute and listens for the resize message.
    let html = iframe_snippet("http://h/?a=1&b=\"x\"", "PE Lab: <decay>");
    assert!(html.contains("src=\"http://h/?a=1&amp;b=&quot;x&quot;\""));
    assert!(html.contains("title=\"PE Lab: &lt;decay&gt;\""));
    assert!(html.contains("pe-lab:resize"));
}

/// Property: whatever the query (real parameter names of every view with hostile values, in
/// any number and order), parsing gives a valid state: its URL, read again, needs no adjustment
/// and gives the same URL and the same state of the view shown. (Parameters the view does not
/// use, such as `rows` of a trained table, are not written, so only the URL is compared.)
#[test]
fn any_query_parses_to_a_valid_canonical_state() {
    let names: Vec<&str> = "view seq_len d_model base layout cols p0 offset cmap head_dim theta \
        partial qk seed max_dist m pos q k method factor orig_ctx beta_fast beta_slow attn_factor \
        mscale mscale_all_dim truncate low_freq_factor high_freq_factor short_factor long_factor \
        table rows heads head buckets max_distance bidirectional order pe k_max embed panel \
        controls theme"
        .split_whitespace()
        .collect();
    // Separated by "|"; the first value is empty.
    let values: Vec<&str> = "|0|-1|1|2|7|63|64|512|4096|99999999|1e309|-1e309|NaN|inf|0.5|1e-12|\
        %E2%80%AE|%00|%|٣|ünï|true|false|1,2,3|3,1,2,0|yarn,ntk|rope|random|custom"
        .split('|')
        .collect();
    let views = "sinusoidal learned rope scaling bias attention compare";
    let views: Vec<&str> = views.split(' ').collect();
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for case in 0..3000 {
        let mut q = format!("view={}", views[case % views.len()]);
        for _ in 0..next(12) {
            q += &format!(
                "&{}={}",
                names[next(names.len())],
                values[next(values.len())]
            );
        }
        let (state, _) = AppState::from_query(&q);
        let canonical = state.to_query();
        let (again, notices) = AppState::from_query(&canonical);
        assert_eq!(again.to_query(), canonical, "{q}");
        assert_eq!(again.view, state.view, "{q}");
        assert!(notices.is_empty(), "{q} → {canonical}: {notices:?}");
    }
}

#[test]
fn every_registered_view_and_panel_is_reachable_by_url() {
    use pe_lab::state::VIEWS;
    let mut names = std::collections::HashSet::new();
    let mut panels = std::collections::HashSet::new();
    for spec in &VIEWS {
        assert!(names.insert(spec.name), "view name {} twice", spec.name);
        let (state, notices) = AppState::from_query(&format!("view={}", spec.name));
        assert_eq!(state.view, spec.view, "view={}", spec.name);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(state.view.title(), spec.title);
        let (back, _) = AppState::from_query(&state.to_query());
        assert_eq!(back, state);
        assert!(!spec.panels.is_empty());
        for panel in spec.panels {
            assert!(panels.insert(panel.id), "panel {} twice", panel.id);
            assert!(!panel.title.is_empty());
            // `panel=` alone implies its view (an embed needs no `view=`).
            let (state, notices) = AppState::from_query(&format!("embed=1&panel={}", panel.id));
            assert_eq!(state.view, spec.view, "panel={}", panel.id);
            assert_eq!(state.panel.as_deref(), Some(panel.id));
            assert!(notices.is_empty(), "{notices:?}");
            let (back, _) = AppState::from_query(&state.to_query());
            assert_eq!(back, state);
        }
    }
}

#[test]
fn a_panel_of_another_view_wins_with_a_notice() {
    let (state, notices) = AppState::from_query("view=sinusoidal&panel=rope-decay");
    assert_eq!(state.view, View::Rope);
    assert_eq!(state.panel.as_deref(), Some("rope-decay"));
    assert_eq!(notices.items[0].param, "view");
    let (state, notices) = AppState::from_query("view=rope&panel=nope");
    assert_eq!((state.view, state.panel), (View::Rope, None));
    assert_eq!(notices.items[0].param, "panel");
    let (state, notices) = AppState::from_query("view=nope");
    assert_eq!(state.view, View::Sinusoidal);
    assert_eq!(notices.items[0].param, "view");
}

#[test]
fn caption_states_every_parameter_of_the_view() {
    let (state, _) = AppState::from_query("view=rope&head_dim=32&theta=500000&embed=1&controls=0");
    let caption = state.caption();
    assert!(
        caption.starts_with("RoPE — head_dim 32 · theta 500000 · "),
        "{caption}"
    );
    assert!(!caption.contains("embed") && !caption.contains("controls"));
}

#[test]
fn highlights_round_trip_on_every_view_and_are_bounded() {
    for spec in &pe_lab::state::VIEWS {
        let q = format!("view={}&hl_cols=4,5&hl_pos=10", spec.name);
        let (state, notices) = AppState::from_query(&q);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(state.highlight.cols, vec![4, 5]);
        assert_eq!(state.highlight.positions, vec![10]);
        let (back, _) = AppState::from_query(&state.to_query());
        assert_eq!(back, state);
    }
    let many: Vec<String> = (0..500).map(|i| i.to_string()).collect();
    let (state, notices) = AppState::from_query(&format!("hl_cols={}&hl_pos=-1,x", many.join(",")));
    assert_eq!(state.highlight.cols.len(), 64);
    assert!(state.highlight.positions.is_empty());
    assert_eq!(notices.items.len(), 2);
}

#[test]
fn hidden_and_locked_controls_round_trip_on_every_view() {
    for spec in pe_lab::state::VIEWS.iter() {
        let names: Vec<&str> = spec.controls.split(' ').collect();
        assert!(!names.is_empty() && names.iter().all(|n| !n.is_empty()));
        // Every name once in each list, in the order given, in a lesson step or a link.
        let hide = names.iter().step_by(2).copied().collect::<Vec<_>>();
        let lock = names.iter().skip(1).step_by(2).copied().collect::<Vec<_>>();
        let q = format!(
            "view={}&hide={}&lock={}",
            spec.name,
            hide.join(","),
            lock.join(",")
        );
        let (state, notices) = AppState::from_query(&q);
        assert!(notices.is_empty(), "{}: {notices:?}", spec.name);
        assert_eq!(state.hidden, hide, "{}", spec.name);
        assert_eq!(state.locked, lock, "{}", spec.name);
        let (again, notices) = AppState::from_query(&state.to_query());
        assert!(notices.is_empty());
        assert_eq!(again, state, "{}", spec.name);
        // Kept by the share links.
        let (embedded, _) = AppState::from_query(&state.embed_query(spec.panels[0].id, true));
        assert_eq!(
            (embedded.hidden, embedded.locked),
            (hide.clone(), lock.clone())
        );
        let (linked, _) = AppState::from_query(&state.permalink_query());
        assert_eq!((linked.hidden, linked.locked), (hide, lock));
    }
}

#[test]
fn unknown_control_names_are_ignored_with_one_notice() {
    let (state, notices) =
        AppState::from_query("view=rope&hide=theta,base,theta,,zzz&lock=head_dim,head_dim");
    assert_eq!(state.hidden, vec!["theta"]);
    assert_eq!(state.locked, vec!["head_dim"]);
    assert_eq!(notices.items.len(), 1, "{notices:?}");
    let n = &notices.items[0];
    assert_eq!(n.param, "hide");
    assert_eq!(n.message, "“base” is not a control of this view; ignored.");
    // The query is rewritten without them.
    assert_eq!(
        AppState::from_query(&state.to_query()).0.hidden,
        vec!["theta"]
    );
    // A thousand names give a bounded message.
    let many = (0..1000)
        .map(|i| format!("x{i}"))
        .collect::<Vec<_>>()
        .join(",");
    let (_, notices) = AppState::from_query(&format!("view=bias&lock={many}"));
    assert!(notices.items[0].message.len() < 300);
    // The same names on another view are another view's controls: sinusoidal has no theta.
    let (state, notices) = AppState::from_query("view=sinusoidal&hide=theta,base");
    assert_eq!(state.hidden, vec!["base"]);
    assert_eq!(notices.items.len(), 1);
}

#[test]
fn the_causal_mask_round_trips_on_the_attention_view() {
    let (state, notices) = AppState::from_query("view=attention&causal=1&pe=rope");
    assert!(notices.is_empty(), "{notices:?}");
    assert!(state.attention.causal);
    assert!(state.to_query().contains("causal=1"));
    assert_eq!(AppState::from_query(&state.to_query()).0, state);
    // Without the mask the URL does not say it; a bad value is refused with a notice.
    assert!(!AppState::default().to_query().contains("causal"));
    let (state, notices) = AppState::from_query("view=attention&causal=maybe");
    assert!(!state.attention.causal);
    assert_eq!(notices.items[0].param, "causal");
}
