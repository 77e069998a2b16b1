//! Mounts the app; nothing else.

#[cfg(target_arch = "wasm32")]
fn main() {
    pe_lab::shell::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("PE Lab runs in the browser: see the README for the command that serves it.");
}
