//! The Notation link: one table of the symbols PE Lab uses, reachable from every view and
//! lesson step. The button is small and ships with the app; the dialog is its own chunk in
//! release builds and fetches the table (`notation.json`) the first time it opens.

use leptos::html::Dialog;
use leptos::prelude::*;

use crate::state::notation::{parse_notation, NOTATION_URL};

/// The Notation button. Its dialog is fetched the first time it is pressed and made anew at
/// every press (a failed fetch is tried again).
#[component]
pub fn NotationButton() -> impl IntoView {
    let presses = RwSignal::new(0u32);
    view! {
        <button class="notation-link" on:click=move |_| presses.update(|n| *n += 1) aria-haspopup="dialog">"Notation"</button>
        {move || if presses.get() > 0 {
            super::fetched(
                super::load_notation,
                "control-msg",
                "Loading…",
                "The Notation table could not be loaded. Press Notation to try again.",
            )
        } else {
            ().into_any()
        }}
    }
}

/// The dialog: the table, fetched and checked, open once mounted.
#[component]
pub fn NotationDialog() -> impl IntoView {
    let dialog = NodeRef::<Dialog>::new();
    let body = RwSignal::new(String::from("<p role=\"status\">Loading the table…</p>"));
    leptos::task::spawn_local(async move {
        let html = match crate::ui::tables::fetch_bytes(NOTATION_URL).await {
            Err(e) => format!(
                "<p role=\"alert\">Could not load the table: {}.</p>",
                crate::format::escape_html(&e)
            ),
            Ok(bytes) => match parse_notation(&String::from_utf8_lossy(&bytes)) {
                Ok(table) => table.to_html(),
                Err(e) => format!(
                    "<p role=\"alert\">The table cannot be read: {}.</p>",
                    crate::format::escape_html(&e)
                ),
            },
        };
        body.try_set(html);
    });
    Effect::new(move |_| {
        let Some(d) = dialog.get() else { return };
        request_animation_frame(move || {
            if !d.open() {
                let _ = d.show_modal();
            }
        });
    });
    let close = move |_| {
        if let Some(d) = dialog.get_untracked() {
            d.close();
        }
    };
    view! {
        <style>{NOTATION_CSS}</style>
        <dialog node_ref=dialog class="notation-dialog" aria-labelledby="notation-title">
            <h2 id="notation-title">"Notation"</h2>
            <div class="notation-body" inner_html=move || body.get()></div>
            <button type="button" class="close" on:click=close>"Close"</button>
        </dialog>
    }
}

/// The dialog's styles, fetched with its code (the first page does not carry them).
const NOTATION_CSS: &str = r#"
.notation-dialog {
  max-width: min(44rem, calc(100vw - 32px)); width: 100%; box-sizing: border-box; max-height: calc(100vh - 48px); overflow: auto;
  background: var(--panel); color: var(--text); border: 1px solid var(--border); border-radius: 8px; padding: 16px 20px;
}
.notation-dialog::backdrop { background: rgb(0 0 0 / 0.45); }
.notation-dialog h2 { margin-top: 0; font-size: 1.2rem; }
.notation-dialog .close { float: right; }
table.notation { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
table.notation th, table.notation td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--border); }
table.notation tbody th { font: 600 0.9rem ui-monospace, monospace; white-space: nowrap; }
/* On a phone: one symbol a block, no column cut off. */
@media (max-width: 560px) {
  table.notation :is(tbody, tr, th, td) { display: block; border: 0; }
  table.notation thead { display: none; }
  table.notation td:last-child::before { content: "Used in:\00a0"; }
}
"#;
