//! Text and JSON rendering shared by the subcommands.

use sleuth_core::analysis::ratio;
use sleuth_core::{CardSet, Explanation, Game, Place};
use std::fmt::Write as _;
use std::io::{self, IsTerminal as _, Write};

/// ANSI colour, on only when asked for and allowed.
#[derive(Copy, Clone, Debug)]
pub struct Paint {
    on: bool,
}

impl Paint {
    /// Colour for standard output: only on a terminal, never with
    /// `--no-color` or a non-empty `NO_COLOR` (<https://no-color.org>).
    pub fn for_stdout(no_color: bool) -> Paint {
        let env_off = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Paint { on: !no_color && !env_off && io::stdout().is_terminal() }
    }

    fn wrap(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub fn bold(self, text: &str) -> String {
        self.wrap("1", text)
    }

    pub fn green(self, text: &str) -> String {
        self.wrap("1;32", text)
    }

    pub fn dim(self, text: &str) -> String {
        self.wrap("2", text)
    }
}

/// A probability as a whole percentage for a notepad cell. Only certain
/// facts print as `100%`/`0%` (callers show those as `O`/`X`); anything else
/// is clamped into `<1%`..`>99%` so that a maybe never looks certain.
pub fn cell_percent(num: u128, den: u128) -> String {
    if den == 0 || num == 0 {
        return "0%".to_string();
    }
    if num == den {
        return "100%".to_string();
    }
    // Round to a whole percent; what would round to 0% or 100% is clamped.
    let pct = (100.0 * ratio(num, den)).round();
    if pct < 1.0 {
        "<1%".to_string()
    } else if pct > 99.0 {
        ">99%".to_string()
    } else {
        format!("{pct:.0}%")
    }
}

/// A probability with one decimal, with the same guarantee as
/// [`cell_percent`]: only a certainty prints as `100%`.
pub fn fine_percent(num: u128, den: u128) -> String {
    if den == 0 || num == 0 {
        return "0%".to_string();
    }
    if num == den {
        return "100%".to_string();
    }
    let tenths = (1000.0 * ratio(num, den)).round();
    if tenths < 1.0 {
        "<0.1%".to_string()
    } else if tenths > 999.0 {
        ">99.9%".to_string()
    } else {
        format!("{:.1}%", tenths / 10.0)
    }
}

/// A count with thousands separators: `1,234,567`.
pub fn group_digits(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Card ids of a set, in deck order, joined by `sep`.
pub fn card_ids(game: &Game, cards: CardSet, sep: &str) -> String {
    game.deck().ids(cards).join(sep)
}

/// The items of an explanation, one line each: `  event 3: ...` and the hand.
pub fn explanation_lines(game: &Game, explanation: &Explanation) -> Vec<String> {
    let mut lines: Vec<String> = explanation
        .events
        .iter()
        .map(|&i| match game.describe_event(i) {
            Some(text) => format!("event {i}: {text}"),
            None => format!("event {i}"),
        })
        .collect();
    if explanation.hand {
        let hand = game.observer().map(|(_, h)| card_ids(game, h, ", ")).unwrap_or_default();
        lines.push(format!("your hand: {hand}"));
    }
    lines
}

/// Prints the report for an inconsistent history.
pub fn write_conflict(out: &mut dyn Write, game: &Game, conflict: Option<&Explanation>) -> io::Result<()> {
    writeln!(out, "inconsistent history: no deal of the cards fits every event")?;
    match conflict {
        Some(c) if c.events.is_empty() && !c.hand => {
            writeln!(out, "the deck, hand sizes and face-up cards alone admit no deal")?;
        }
        Some(c) => {
            let which = if c.minimum { "a smallest set" } else { "a minimal set" };
            writeln!(out, "these cannot all be true ({which}; one of them was probably entered wrong):")?;
            for line in explanation_lines(game, c) {
                writeln!(out, "  {line}")?;
            }
        }
        None => writeln!(out, "(the conflicting events could not be determined)")?,
    }
    Ok(())
}

/// A one-line description of who is looking: `sc (hand: wh, li, st)` or a bystander.
pub fn viewpoint(game: &Game) -> String {
    match game.observer() {
        Some((me, hand)) if hand.is_empty() => format!("{}'s view (no cards in hand)", game.player_id(me)),
        Some((me, hand)) => format!("{}'s view (hand: {})", game.player_id(me), card_ids(game, hand, ", ")),
        None => "a bystander's view".to_string(),
    }
}

/// What the deck is called in summaries.
pub fn deck_name(game: &Game) -> String {
    let deck = game.deck();
    let kind = match deck.kind() {
        sleuth_core::model::DeckKind::Classic => "classic",
        sleuth_core::model::DeckKind::Master => "master",
        sleuth_core::model::DeckKind::Custom => "custom",
    };
    let sizes: Vec<String> = deck.categories().map(|c| deck.category_cards(c).len().to_string()).collect();
    format!("{kind} deck ({} cards: {})", deck.len(), sizes.join("+"))
}

/// Every place, in seat order then the case file, with its id.
pub fn places(game: &Game) -> Vec<(Place, &str)> {
    game.places().map(|p| (p, game.place_id(p))).collect()
}

/// The most characters of an id a table column or row label shows; JSON
/// output always has the full id.
pub const TABLE_ID_CHARS: usize = 16;

/// The most characters of a card's display name a row label shows.
pub const TABLE_NAME_CHARS: usize = 32;

/// An id as a table shows it: elided to [`TABLE_ID_CHARS`] with `…`.
pub fn table_id(id: &str) -> std::borrow::Cow<'_, str> {
    sleuth_core::text::elide(id, TABLE_ID_CHARS)
}

/// A JSON string literal.
pub fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_json_str(&mut out, s);
    out
}

/// Appends a JSON string literal. Ids and names rarely need escaping, so
/// they are copied as they are; anything else goes through serde_json.
pub fn push_json_str(out: &mut String, s: &str) {
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        out.push_str(&serde_json::Value::String(s.to_string()).to_string());
    }
}

/// A JSON number for a probability; always finite.
pub fn json_f64(x: f64) -> String {
    let mut out = String::new();
    push_json_f64(&mut out, x);
    out
}

/// Appends [`json_f64`]'s number.
pub fn push_json_f64(out: &mut String, x: f64) {
    // serde_json's own float formatting (its `Number`'s text), without
    // going through `fmt`.
    if x.is_finite() {
        out.push_str(zmij::Buffer::new().format_finite(x));
    } else {
        out.push('0');
    }
}

/// A count as a JSON string of its decimal digits (counts can exceed what
/// a JSON number holds exactly).
pub fn json_count(n: u128) -> String {
    let mut out = String::new();
    push_json_count(&mut out, n);
    out
}

/// Appends [`json_count`]'s string.
pub fn push_json_count(out: &mut String, n: u128) {
    out.push('"');
    out.push_str(itoa::Buffer::new().format(n));
    out.push('"');
}

/// A JSON array of strings on one line.
pub fn json_str_array<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let mut s = String::new();
    push_json_str_array(&mut s, items);
    s
}

/// Appends [`json_str_array`]'s array.
pub fn push_json_str_array<'a>(out: &mut String, items: impl IntoIterator<Item = &'a str>) {
    out.push('[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_json_str(out, item);
    }
    out.push(']');
}

/// A JSON object on one line from already-rendered values.
pub fn json_object(entries: impl IntoIterator<Item = (String, String)>) -> String {
    let mut s = String::from("{");
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{}: {v}", json_str(&k));
    }
    s.push('}');
    s
}

/// The bold first line of a report: "Sleuth WHAT: viewpoint, N events, deck".
pub fn write_title(out: &mut dyn std::io::Write, game: &Game, paint: Paint, what: &str) -> std::io::Result<()> {
    let n = game.events().len();
    let title =
        format!("Sleuth {what}: {}, {n} event{}, {}", viewpoint(game), if n == 1 { "" } else { "s" }, deck_name(game));
    writeln!(out, "{}", paint.bold(&title))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maybes_never_look_certain() {
        assert_eq!(cell_percent(1, 1000), "<1%");
        assert_eq!(cell_percent(999, 1000), ">99%");
        assert_eq!(cell_percent(995, 1000), ">99%");
        assert_eq!(cell_percent(994, 1000), "99%");
        assert_eq!(cell_percent(5, 1000), "1%");
        assert_eq!(cell_percent(4, 1000), "<1%");
        assert_eq!(cell_percent(1, 3), "33%");
        assert_eq!(cell_percent(10, 1000), "1%");
        assert_eq!(cell_percent(0, 7), "0%");
        assert_eq!(cell_percent(7, 7), "100%");
        assert_eq!(fine_percent(9999, 10000), ">99.9%");
        assert_eq!(fine_percent(9990, 10000), "99.9%");
        assert_eq!(fine_percent(1, 10000), "<0.1%");
        assert_eq!(fine_percent(1, 8), "12.5%");
        assert_eq!(fine_percent(u128::MAX - 1, u128::MAX), ">99.9%");
    }

    #[test]
    fn digits_are_grouped() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(1234567), "1,234,567");
    }

    #[test]
    fn json_helpers_escape() {
        assert_eq!(json_str("a\"b"), r#""a\"b""#);
        assert_eq!(json_str_array(["x", "y"]), r#"["x", "y"]"#);
        assert_eq!(json_f64(0.5), "0.5");
        assert_eq!(json_object([("k".to_string(), "1".to_string())]), r#"{"k": 1}"#);
    }
}
