//! Text and JSON rendering shared by the subcommands.

use sleuth_core::analysis::ratio;
use sleuth_core::{Card, CardSet, Explanation, Game, Place};
use std::ffi::OsString;
use std::io::{self, IsTerminal as _, Write};
use std::sync::OnceLock;

/// `--color`: when to colour the output and the progress bars.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set (<https://no-color.org>).
    #[default]
    Auto,
    /// Always, even into a file or a pipe, and whatever `NO_COLOR` says.
    Always,
    /// Never.
    Never,
}

/// The process's `--color`, set once from the command line. A process-wide
/// setting of the front end (the core has none): every subcommand and
/// progress bar reads it, and it is known before the subcommand is parsed.
static COLOR: OnceLock<ColorChoice> = OnceLock::new();

/// Sets the process's `--color` (the first call wins).
pub fn set_color(choice: ColorChoice) {
    let _ = COLOR.set(choice);
}

impl ColorChoice {
    /// The last `--color WHEN` or `--color=WHEN` among the arguments, read
    /// before clap parses them (`auto` if absent or not a choice: clap then
    /// says what is wrong with it).
    pub fn from_args(args: &[OsString]) -> ColorChoice {
        let mut choice = ColorChoice::Auto;
        let mut words = args.iter().skip(1).map(|a| a.to_str());
        while let Some(word) = words.next() {
            let value = match word {
                Some("--") => break,
                Some("--color") => words.next().flatten(),
                Some(w) => w.strip_prefix("--color="),
                None => None,
            };
            if let Some(c) = value.and_then(|v| <ColorChoice as clap::ValueEnum>::from_str(v, false).ok()) {
                choice = c;
            }
        }
        choice
    }

    /// The same choice for clap's help and error messages.
    pub fn for_clap(self) -> clap::ColorChoice {
        match self {
            ColorChoice::Auto => clap::ColorChoice::Auto,
            ColorChoice::Always => clap::ColorChoice::Always,
            ColorChoice::Never => clap::ColorChoice::Never,
        }
    }

    /// Whether to colour a stream that is (or is not) a terminal.
    fn on(self, terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }
}

/// The process's `--color`.
fn color() -> ColorChoice {
    COLOR.get().copied().unwrap_or_default()
}

/// ANSI colour, on only when asked for and allowed.
#[derive(Copy, Clone, Debug)]
pub struct Paint {
    on: bool,
}

impl Paint {
    /// Colour for standard output, as `--color` says (`auto`: only on a
    /// terminal, never with a non-empty `NO_COLOR`); never with the
    /// subcommand's `no_color` (`--no-color`).
    pub fn for_stdout(no_color: bool) -> Paint {
        Paint { on: !no_color && color().on(io::stdout().is_terminal()) }
    }

    /// Colour for standard error (progress bars), as `--color` says.
    pub fn for_stderr() -> Paint {
        Paint { on: color().on(io::stderr().is_terminal()) }
    }

    /// Whether colour is on.
    pub fn is_on(self) -> bool {
        self.on
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

/// The plural ending of a count: "" for 1, "s" otherwise ("1 deal", "2 deals").
pub fn plural<N: PartialEq + From<u8>>(n: N) -> &'static str {
    if n == N::from(1) {
        ""
    } else {
        "s"
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

/// Writes a wire value (`sleuth_core::wire`) as pretty-printed JSON and a
/// newline: what every `--json` prints.
pub fn write_json(out: &mut dyn Write, value: &impl serde::Serialize) -> io::Result<()> {
    out.write_all(sleuth_core::wire::report::to_text(value).as_bytes())
}

/// The bold first line of a report: "Sleuth WHAT: viewpoint, N events, deck".
pub fn write_title(out: &mut dyn std::io::Write, game: &Game, paint: Paint, what: &str) -> std::io::Result<()> {
    let n = game.events().len();
    let title = format!("Sleuth {what}: {}, {n} event{}, {}", viewpoint(game), plural(n), deck_name(game));
    writeln!(out, "{}", paint.bold(&title))
}

/// The line that ends a list of `listed` items cut after `shown`:
/// `  ... and 12 more` (nothing when the list is whole).
pub fn write_more(out: &mut dyn std::io::Write, listed: usize, shown: usize) -> std::io::Result<()> {
    if listed > shown {
        writeln!(out, "  ... and {} more", group_digits((listed - shown) as u128))?;
    }
    Ok(())
}

/// `pe, pi, bi (Mrs. Peacock, Lead Pipe, Billiard Room)`.
pub fn describe_cards(game: &Game, cards: &[Card]) -> String {
    let deck = game.deck();
    let ids: Vec<&str> = cards.iter().map(|&c| deck.id(c)).collect();
    let names: Vec<&str> = cards.iter().map(|&c| deck.name(c)).collect();
    if ids == names {
        ids.join(", ")
    } else {
        format!("{} ({})", ids.join(", "), names.join(", "))
    }
}

/// The notepad grid: a header row of places, then cards by category, each
/// cell drawn by `cell(card, place, width)`. Shared by both engines.
pub fn write_grid(
    out: &mut dyn Write,
    game: &Game,
    paint: Paint,
    cell: &dyn Fn(Card, Place, usize) -> String,
) -> std::io::Result<()> {
    let deck = game.deck();
    let places = places(game);
    let headers: Vec<std::borrow::Cow<'_, str>> =
        places.iter().map(|&(p, id)| if p == Place::CaseFile { "case file".into() } else { table_id(id) }).collect();
    let widths: Vec<usize> = headers.iter().map(|h| h.chars().count().max(4)).collect();
    let face_up = game.face_up();
    let label = |c: Card| {
        let (id, name) = (table_id(deck.id(c)), sleuth_core::text::elide(deck.name(c), TABLE_NAME_CHARS));
        let mut s = if id == name { id.to_string() } else { format!("{id:<id_w$}  {name}", id_w = id_width(game)) };
        if face_up.contains(c) {
            s.push_str(" (face up)");
        }
        s
    };
    let label_w = deck.cards().map(|c| label(c).chars().count() + 2).max().unwrap_or(0);

    // Header row.
    let mut line = " ".repeat(label_w);
    for (h, w) in headers.iter().zip(&widths) {
        line.push_str("  ");
        line.push_str(&paint.bold(&format!("{h:^w$}")));
    }
    writeln!(out, "{}", line.trim_end())?;

    for cat in deck.categories() {
        writeln!(out, "{}", paint.bold(deck.category_name(cat)))?;
        for c in deck.category_cards(cat) {
            let mut line = format!("  {:<w$}", label(c), w = label_w - 2);
            for (&(place, _), &w) in places.iter().zip(&widths) {
                line.push_str("  ");
                line.push_str(&cell(c, place, w));
            }
            writeln!(out, "{}", line.trim_end())?;
        }
    }
    Ok(())
}

fn id_width(game: &Game) -> usize {
    game.deck().cards().map(|c| table_id(game.deck().id(c)).chars().count()).max().unwrap_or(0)
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
}
