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
            ("page", [(r, rl)]) => abi::sleuth_page(*r, *rl),
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

/// One request of the page through the ABI: (status, body or error).
fn page(request: serde_json::Value) -> (u64, serde_json::Value) {
    let (code, out) = call("page", &[&request.to_string()]);
    assert_eq!(code, 0, "a page request always answers JSON: {out}");
    let reply: serde_json::Value = serde_json::from_str(&out).unwrap();
    let status = reply["status"].as_u64().unwrap();
    (status, if status == 200 { reply["body"].clone() } else { reply["error"].clone() })
}

#[test]
fn the_pages_analysis_is_analyze_json_with_its_version() {
    let (status, body) = page(serde_json::json!({"op": "analysis", "game": SAMPLE, "version": 7}));
    assert_eq!(status, 200);
    let mut cli: serde_json::Value = serde_json::from_str(&call("analyze", &[SAMPLE]).1).unwrap();
    cli["version"] = 7.into();
    assert_eq!(body, cli);

    let (status, view) = page(serde_json::json!({"op": "view", "game": SAMPLE}));
    assert_eq!(status, 200);
    let events = view["view"]["events"].as_array().unwrap();
    let file: serde_json::Value = serde_json::from_str(SAMPLE).unwrap();
    assert_eq!(events.len(), file["events"].as_array().unwrap().len());
    assert_eq!(events[0]["text"], "sc suggested sc, ro, lo; mu refuted and showed sc");
    assert_eq!(view["view"]["hand_sizes"], serde_json::json!([3, 3, 3, 3, 3, 3]));
    // The export is the game file's own writer: it reads back as the same game.
    let text = view["text"].as_str().unwrap();
    let back = sleuth_core::GameFile::from_json(text).unwrap();
    assert_eq!(back, sleuth_core::GameFile::from_json(SAMPLE).unwrap());
}

#[test]
fn page_requests_are_refused_with_the_apis_statuses() {
    let player = |hand: &str| {
        format!(
            r#"{{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a", "hand": [{hand}], "events": []}}"#
        )
    };
    let cases = [
        (serde_json::json!({"op": "view", "game": "{\"version\": 1"}), 400, "not valid JSON"),
        (serde_json::json!({"op": "view", "game": player(r#""mu", "zz""#)}), 422, "zz"),
        (
            serde_json::json!({"op": "event", "event": {"suggestion": {"by": "a", "cards": [], "x": 1}}}),
            400,
            "unknown key 'x'",
        ),
        (serde_json::json!({"op": "why", "game": SAMPLE, "card": "zz", "place": "sc"}), 400, "unknown card 'zz'"),
        (
            serde_json::json!({"op": "refutation", "game": SAMPLE, "by": "sc", "cards": ["mu", "kn", "ha"]}),
            400,
            "your own",
        ),
        (
            serde_json::json!({"op": "refutation", "game": SAMPLE, "by": "mu", "cards": ["mu", "pl"]}),
            400,
            "one card of each",
        ),
        (serde_json::json!({"op": "nothing"}), 400, "unknown op"),
        (serde_json::json!({"op": "analysis", "game": SAMPLE}), 400, "version"),
    ];
    for (request, want, says) in cases {
        let (status, error) = page(request.clone());
        assert_eq!(status, want, "{request}: {error}");
        assert!(error.as_str().unwrap().contains(says), "{request}: {error}");
    }
    let (_, text) = call("page", &["not json"]);
    assert!(text.contains("\"status\":400"), "{text}");

    // An inconsistent history: no advice, not an error (the page says why).
    let file: serde_json::Value =
        serde_json::from_str(include_str!("../../../testdata/corpus/classic-observer-inconsistent.json")).unwrap();
    let (status, advice) = page(serde_json::json!({"op": "advice", "game": file.to_string(), "version": 2}));
    assert_eq!((status, advice["consistent"].clone(), advice["version"].clone()), (200, false.into(), 2.into()));
}

/// The sample game with its first `n` turns, as a JSON value.
fn sample(n: usize) -> serde_json::Value {
    let mut g: serde_json::Value = serde_json::from_str(SAMPLE).unwrap();
    g["events"] = serde_json::Value::Array(g["events"].as_array().unwrap()[..n].to_vec());
    g
}

/// The page's analysis of a game file, without its version.
fn page_analysis(file: &serde_json::Value) -> serde_json::Value {
    let (status, mut a) = page(serde_json::json!({"op": "analysis", "game": file.to_string(), "version": 0}));
    assert_eq!(status, 200, "{a}");
    a.as_object_mut().unwrap().remove("version");
    a
}

#[test]
fn the_pages_what_if_is_the_analysis_with_the_fact_written_as_a_turn() {
    let file = sample(12);
    let base = page_analysis(&file);
    // sc is the observer and mu sits next: "mu holds X" is exactly "sc suggested X, kn, ha; mu showed X".
    let open: Vec<&str> =
        ["pl", "gr", "wh", "mu", "pe", "sc"].into_iter().filter(|c| base["status"][c]["mu"] == "maybe").collect();
    assert!(open.len() >= 2, "the sample leaves some suspects open at mu: {open:?}");
    for card in open {
        let fact = serde_json::json!({"card": card, "place": "mu", "holds": true});
        let body = serde_json::json!({"game": file, "suppose": [fact]});
        let (status, mut what_if) = page(serde_json::json!({"op": "what_if", "body": body.to_string()}));
        assert_eq!(status, 200, "{what_if}");
        assert_eq!(what_if.as_object_mut().unwrap().remove("suppose"), Some(serde_json::json!([fact])));
        assert_eq!(what_if["models"], base["models_by_place"][card]["mu"], "conditioning on the cell");
        let mut with_turn = file.clone();
        with_turn["events"].as_array_mut().unwrap().push(
            serde_json::json!({"suggestion": {"by": "sc", "cards": [card, "kn", "ha"], "refuted_by": "mu", "shown": card}}),
        );
        assert_eq!(what_if, page_analysis(&with_turn), "supposing mu holds {card}");
    }
    // "Not in the case file": the deals left are the others.
    let body = serde_json::json!({"game": file, "suppose": [{"card": "ha", "place": "case_file", "holds": false}]});
    let (_, what_if) = page(serde_json::json!({"op": "what_if", "body": body.to_string()}));
    let [all, with]: [u128; 2] =
        [&base["models"], &base["models_by_place"]["ha"]["case_file"]].map(|n| n.as_str().unwrap().parse().unwrap());
    assert_eq!(what_if["models"].as_str().unwrap().parse::<u128>().unwrap(), all - with);
}

#[test]
fn the_pages_planned_suggestion_is_the_advices_evaluation() {
    let file = sample(12).to_string();
    let (status, advice) = page(serde_json::json!({"op": "advice", "game": file, "version": 0}));
    assert_eq!(status, 200, "{advice}");
    let listed = advice["suggestions"].as_array().unwrap();
    assert!(listed.iter().any(|s| !s["same_answers_as"].is_null()), "{advice}");
    for best in listed {
        let body = serde_json::json!({"game": sample(12), "cards": best["cards"]});
        let (status, eval) = page(serde_json::json!({"op": "evaluate", "body": body.to_string()}));
        assert_eq!(status, 200, "{eval}");
        // Where it stands in the advice's list is not part of its evaluation.
        let mut listed = best.clone();
        listed["same_answers_as"] = serde_json::Value::Null;
        assert_eq!(eval, listed);
    }
}

#[test]
fn bad_what_ifs_and_plans_are_refused_with_the_apis_statuses() {
    let file = sample(3);
    let fact = |card: &str, place: &str| serde_json::json!({"card": card, "place": place, "holds": true});
    let mut bystander = sample(0);
    bystander.as_object_mut().unwrap().remove("me");
    bystander.as_object_mut().unwrap().remove("hand");
    let cases = [
        ("what_if", serde_json::json!({"game": file, "suppose": [fact("zz", "mu")]}), 400, "unknown card 'zz'"),
        ("what_if", serde_json::json!({"game": file, "suppose": [fact("kn", "zz")]}), 400, "unknown place 'zz'"),
        ("what_if", serde_json::json!({"game": file, "suppose": vec![fact("kn", "mu"); 65]}), 400, "at most 64 facts"),
        ("what_if", serde_json::json!({"game": {"version": 1}}), 400, "'game': "),
        ("what_if", serde_json::json!({"game": file, "facts": []}), 400, "unknown field `facts`"),
        ("evaluate", serde_json::json!({"game": file, "cards": ["pl", "mu", "ha"]}), 400, "one card of each category"),
        ("evaluate", serde_json::json!({"game": file, "cards": ["pl", "kn", "zz"]}), 400, "unknown card 'zz'"),
        ("evaluate", serde_json::json!({"game": bystander, "cards": ["pl", "kn", "ha"]}), 422, "'me'"),
    ];
    for (op, body, want, says) in cases {
        let (status, error) = page(serde_json::json!({"op": op, "body": body.to_string()}));
        assert_eq!(status, want, "{op} {body}: {error}");
        assert!(error.as_str().unwrap().contains(says), "{op} {body}: {error}");
    }
    let (status, error) = page(serde_json::json!({"op": "what_if"}));
    assert_eq!(status, 400, "{error}");
}

/// An advice request with `"progress": true` gives the advice so far after
/// each suggestion evaluated (one more each time, from none to the whole
/// shortlist, the last one listing the final advice's suggestions), then the
/// same reply as without it.
#[test]
fn the_pages_progressive_advice_firms_up_to_the_advice() {
    for n in [0, 6, 12] {
        let request = serde_json::json!({"op": "advice", "game": sample(n).to_string(), "version": n});
        let plain = sleuth_wasm::page::page(&request.to_string());
        let mut progressive = request.clone();
        progressive["progress"] = true.into();
        let mut partial: Vec<serde_json::Value> = Vec::new();
        let reply = sleuth_wasm::page::page_with(&progressive.to_string(), &mut |text| {
            partial.push(serde_json::from_str(text).unwrap());
        });
        assert_eq!(reply, plain, "after {n} turns");
        let reply: serde_json::Value = serde_json::from_str(&reply).unwrap();
        let shortlisted = partial[0]["shortlisted"].as_u64().unwrap() as usize;
        assert!(shortlisted > 0 && partial.len() == shortlisted + 1, "after {n} turns: {} updates", partial.len());
        for (k, p) in partial.iter().enumerate() {
            assert_eq!((p["partial"].clone(), p["version"].clone()), (true.into(), n.into()), "{p}");
            assert_eq!(p["evaluated"], k, "{p}");
            assert_eq!(
                (p["models"].clone(), p["entropy"].clone()),
                (reply["body"]["models"].clone(), reply["body"]["entropy"].clone())
            );
        }
        assert_eq!(partial[shortlisted]["suggestions"], reply["body"]["suggestions"], "after {n} turns");
    }
}
