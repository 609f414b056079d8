//! The engine's functions natively, through the same C ABI that
//! `sleuth.mjs` calls (tests/compare.mjs checks the .wasm against the
//! command line under Node).
#![allow(unsafe_code)]

use sleuth_wasm::abi;

const SAMPLE: &str = include_str!("../../../testdata/seed-sat-sample.json");

/// Calls a command as sleuth.mjs does: arguments copied into buffers of
/// `sleuth_alloc`, the output read from `sleuth_output_*`, buffers freed.
fn call(command: &str, args: &[&str]) -> (u32, String) {
    let buffers: Vec<(*mut u8, usize)> = args
        .iter()
        .map(|a| {
            let ptr = abi::sleuth_alloc(a.len());
            // SAFETY: a fresh buffer of a.len() bytes.
            unsafe { std::ptr::copy_nonoverlapping(a.as_ptr(), ptr, a.len()) };
            (ptr, a.len())
        })
        .collect();
    // SAFETY: every pointer and length is a live sleuth_alloc buffer.
    let code = unsafe {
        match (command, buffers.as_slice()) {
            ("analyze", [(g, gl)]) => abi::sleuth_analyze(*g, *gl),
            ("check", [(g, gl)]) => abi::sleuth_check(*g, *gl),
            ("advise", [(g, gl)]) => abi::sleuth_advise(*g, *gl),
            ("why", [(g, gl), (c, cl), (p, pl)]) => abi::sleuth_why(*g, *gl, *c, *cl, *p, *pl),
            _ => panic!("no command {command} of {} arguments", args.len()),
        }
    };
    // SAFETY: the output stays valid until the next command.
    let out = unsafe { std::slice::from_raw_parts(abi::sleuth_output_ptr(), abi::sleuth_output_len()) };
    let out = String::from_utf8(out.to_vec()).expect("UTF-8 output");
    for (ptr, len) in buffers {
        // SAFETY: each buffer once.
        unsafe { abi::sleuth_free(ptr, len) };
    }
    (code, out)
}

#[test]
fn abi_gives_the_functions_answers() {
    let (code, out) = call("analyze", &[SAMPLE]);
    assert_eq!((code, out.as_str()), (0, sleuth_wasm::analyze(SAMPLE).unwrap().as_str()));
    let analysis: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(analysis["consistent"], true);
    assert!(out.ends_with("}\n"), "pretty JSON and a newline, as the command line prints");

    let (code, out) = call("why", &[SAMPLE, "pi", "case_file"]);
    assert_eq!((code, out), (0, sleuth_wasm::why(SAMPLE, "pi", "case_file").unwrap()));
    let (code, out) = call("check", &[SAMPLE]);
    assert_eq!((code, out), (0, sleuth_wasm::check(SAMPLE).unwrap()));
}

#[test]
fn errors_are_the_command_lines_messages() {
    let (code, out) = call("analyze", &["{\"version\": 1"]);
    assert_eq!(code, 1);
    assert!(out.contains("line 1"), "{out}");
    let (code, out) = call("why", &[SAMPLE, "pipe", "case_file"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("unknown card 'pipe'") && out.contains("; the cards are mu, pl, "), "{out}");
    let (code, out) = call("why", &[SAMPLE, "pi", "nobody"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("unknown place 'nobody'; the places are "), "{out}");
    // The advice needs a player's view.
    let bystander = r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "events": []}"#;
    let (code, out) = call("advise", &[bystander]);
    assert_eq!(code, 1);
    assert!(!out.is_empty());
}

#[test]
fn input_that_is_not_utf8_is_refused() {
    let ptr = abi::sleuth_alloc(2);
    // SAFETY: a buffer of two bytes, freed once.
    let code = unsafe {
        std::ptr::copy_nonoverlapping([b'{', 0xff].as_ptr(), ptr, 2);
        let code = abi::sleuth_analyze(ptr, 2);
        abi::sleuth_free(ptr, 2);
        code
    };
    assert_eq!(code, 1);
    assert_eq!(sleuth_wasm_output(), "the game is not UTF-8 text (invalid byte at offset 1)");
}

fn sleuth_wasm_output() -> String {
    // SAFETY: the last command's output.
    let out = unsafe { std::slice::from_raw_parts(abi::sleuth_output_ptr(), abi::sleuth_output_len()) };
    String::from_utf8(out.to_vec()).unwrap()
}
