//! Position tables loaded in this session (the shipped MiniLM table, a local file), kept across
//! view switches and shared by the Learned and Compare views; and fetching bytes relative to
//! the page.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::encoding::learned::Table;

/// The shipped asset, fetched relative to the page (works under any sub-path).
pub const MINILM_URL: &str = "./minilm_l6_v2_position_embeddings.f16";
const MINILM_ROWS: usize = 512;
const MINILM_COLS: usize = 384;

/// A loaded table with an identity, so memos compare cheaply.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub id: u32,
    pub label: String,
    pub table: Arc<Table>,
}

impl PartialEq for Loaded {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

/// Tables loaded in this session (kept across view switches).
#[derive(Clone, Copy)]
pub struct TableStore {
    pub minilm: RwSignal<Option<Loaded>>,
    pub minilm_status: RwSignal<String>,
    pub file: RwSignal<Option<Loaded>>,
    next_id: StoredValue<u32>,
}

impl TableStore {
    pub fn new() -> TableStore {
        TableStore {
            minilm: RwSignal::new(None),
            minilm_status: RwSignal::new(String::new()),
            file: RwSignal::new(None),
            next_id: StoredValue::new(1),
        }
    }

    /// A fresh identity for a newly loaded table.
    pub fn id(&self) -> u32 {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        id
    }

    /// Fetches the MiniLM table once (in a task: see [`TableStore::fetch_minilm`]).
    pub fn load_minilm(self) {
        leptos::task::spawn_local(self.fetch_minilm());
    }

    /// Fetches the MiniLM table into the store, unless it is there or on its way; says how it
    /// went in `minilm_status`.
    pub async fn fetch_minilm(self) {
        if self.minilm.get_untracked().is_some() || !self.minilm_status.get_untracked().is_empty() {
            return;
        }
        self.minilm_status
            .set("Loading the MiniLM table (384 KB)…".into());
        match fetch_bytes(MINILM_URL)
            .await
            .and_then(|b| Table::from_f16_le(&b, MINILM_ROWS, MINILM_COLS))
        {
            Ok(table) => {
                let id = self.id();
                self.minilm.set(Some(Loaded {
                    id,
                    label: "all-MiniLM-L6-v2 (512 × 384)".into(),
                    table: Arc::new(table),
                }));
                self.minilm_status.set("loaded".into());
            }
            Err(e) => self
                .minilm_status
                .set(format!("Could not load the table: {e}")),
        }
    }
}

impl Default for TableStore {
    fn default() -> Self {
        TableStore::new()
    }
}

pub async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| "the request failed".to_string())?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "no response".to_string())?;
    if !response.ok() {
        return Err(format!("the server answered {}", response.status()));
    }
    let buffer = wasm_bindgen_futures::JsFuture::from(
        response.array_buffer().map_err(|_| "no body".to_string())?,
    )
    .await
    .map_err(|_| "the body could not be read".to_string())?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}
