//! The C ABI that `sleuth.mjs` calls: no wasm-bindgen, whose command-line
//! tool must match the crate's version exactly and would be one more
//! install for every build; strings cross as UTF-8 bytes.
//!
//! JavaScript asks for an input buffer (`sleuth_alloc`), writes the text's
//! bytes into the module's memory, calls a command with pointer and length
//! of each argument, and frees the buffers (`sleuth_free`). A command
//! returns 0 when its output is the JSON text, 1 when it is an error
//! message; `sleuth_output_ptr` and `sleuth_output_len` locate that text,
//! valid until the next command.
#![allow(unsafe_code)]

use std::cell::RefCell;

thread_local! {
    /// The last command's output (WebAssembly runs this module on one
    /// thread).
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A zeroed buffer of `len` bytes for JavaScript to fill; give it back with
/// [`sleuth_free`].
#[no_mangle]
pub extern "C" fn sleuth_alloc(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast()
}

/// Frees a buffer of [`sleuth_alloc`].
///
/// # Safety
/// `ptr` and `len` are those of one [`sleuth_alloc`] not yet freed.
#[no_mangle]
pub unsafe extern "C" fn sleuth_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller's contract: this is the boxed slice that
    // sleuth_alloc leaked.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
}

/// Where the last command's output starts.
#[no_mangle]
pub extern "C" fn sleuth_output_ptr() -> *const u8 {
    OUTPUT.with(|o| o.borrow().as_ptr())
}

/// The length in bytes of the last command's output.
#[no_mangle]
pub extern "C" fn sleuth_output_len() -> usize {
    OUTPUT.with(|o| o.borrow().len())
}

/// The text of an argument.
///
/// # Safety
/// `ptr` and `len` lie inside one live [`sleuth_alloc`] buffer.
unsafe fn text<'a>(ptr: *const u8, len: usize, what: &str) -> Result<&'a str, String> {
    // SAFETY: the caller's contract.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    std::str::from_utf8(bytes)
        .map_err(|e| format!("the {what} is not UTF-8 text (invalid byte at offset {})", e.valid_up_to()))
}

/// Keeps `result` as the output; 0 for a result, 1 for an error.
fn finish(result: Result<String, String>) -> u32 {
    let (code, text) = match result {
        Ok(json) => (0, json),
        Err(message) => (1, message),
    };
    OUTPUT.with(|o| *o.borrow_mut() = text.into_bytes());
    code
}

/// [`crate::analyze`].
///
/// # Safety
/// Each pointer and length lie inside one live [`sleuth_alloc`] buffer.
#[no_mangle]
pub unsafe extern "C" fn sleuth_analyze(game: *const u8, game_len: usize) -> u32 {
    // SAFETY: the caller's contract.
    finish(unsafe { text(game, game_len, "game") }.and_then(crate::analyze))
}

/// [`crate::why`].
///
/// # Safety
/// Each pointer and length lie inside one live [`sleuth_alloc`] buffer.
#[no_mangle]
pub unsafe extern "C" fn sleuth_why(
    game: *const u8,
    game_len: usize,
    card: *const u8,
    card_len: usize,
    place: *const u8,
    place_len: usize,
) -> u32 {
    // SAFETY: the caller's contract.
    let args = unsafe { (text(game, game_len, "game"), text(card, card_len, "card"), text(place, place_len, "place")) };
    finish(match args {
        (Ok(game), Ok(card), Ok(place)) => crate::why(game, card, place),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Err(e),
    })
}

/// [`crate::advise`].
///
/// # Safety
/// Each pointer and length lie inside one live [`sleuth_alloc`] buffer.
#[no_mangle]
pub unsafe extern "C" fn sleuth_advise(game: *const u8, game_len: usize) -> u32 {
    // SAFETY: the caller's contract.
    finish(unsafe { text(game, game_len, "game") }.and_then(crate::advise))
}

/// [`crate::check`].
///
/// # Safety
/// Each pointer and length lie inside one live [`sleuth_alloc`] buffer.
#[no_mangle]
pub unsafe extern "C" fn sleuth_check(game: *const u8, game_len: usize) -> u32 {
    // SAFETY: the caller's contract.
    finish(unsafe { text(game, game_len, "game") }.and_then(crate::check))
}

/// [`crate::page::page`]: always 0 (its output is JSON, a refusal too).
///
/// # Safety
/// Each pointer and length lie inside one live [`sleuth_alloc`] buffer.
#[no_mangle]
pub unsafe extern "C" fn sleuth_page(request: *const u8, request_len: usize) -> u32 {
    // SAFETY: the caller's contract.
    finish(unsafe { text(request, request_len, "request") }.map(crate::page::page))
}

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "sleuth")]
extern "C" {
    /// JavaScript's handler of the advice so far (`sleuth.mjs` passes the
    /// caller's): UTF-8 JSON text, valid only during the call.
    fn sleuth_progress(ptr: *const u8, len: usize);
}

/// Hands `text` to JavaScript's progress handler (natively, where no
/// JavaScript calls, to nobody).
fn progress(text: &str) {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: the pointer and length are those of a live string, read
    // before this call returns.
    unsafe {
        sleuth_progress(text.as_ptr(), text.len());
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = text;
}

/// [`crate::page::page_with`], calling the `sleuth.sleuth_progress` import
/// with the advice so far of an `advice` request with `"progress": true`:
/// always 0.
///
/// # Safety
/// Each pointer and length lie inside one live [`sleuth_alloc`] buffer.
#[no_mangle]
pub unsafe extern "C" fn sleuth_page_progress(request: *const u8, request_len: usize) -> u32 {
    // SAFETY: the caller's contract.
    finish(unsafe { text(request, request_len, "request") }.map(|r| crate::page::page_with(r, &mut progress)))
}
