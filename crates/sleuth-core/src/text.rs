//! User text in one spelling and safe to print: ids compared in Unicode
//! NFC, invisible and control characters refused in ids and escaped in
//! output, very long ids elided.
//!
//! Game files are read so that the ids and names of a [`Game`](crate::Game)
//! are in NFC ([`nfc`]: `café` typed as one character or as `e` and a
//! combining accent is one id), hold no invisible or control character
//! ([`is_unsafe_char`]) and are at most [`MAX_ID_CHARS`] characters long.
//! Text that has not passed validation (an unknown id in an error message,
//! a key, a command-line argument) goes through [`quote`] or [`escape`]
//! before it is printed, so that no input can move a terminal's cursor,
//! ring its bell, reverse the text around it, hide in a zero-width
//! character or fill the screen.

use std::borrow::Cow;
use std::fmt::Write as _;
use unicode_general_category::{get_general_category, GeneralCategory};
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// The longest id or name a game file may hold, in characters.
pub const MAX_ID_CHARS: usize = 100;

/// How many characters of a foreign string an error message shows.
const QUOTE_CHARS: usize = 40;

/// Whether `c` must not be printed raw nor be part of an id: a control
/// character (Unicode general category `Cc`: NUL, BEL, ESC, DEL, C1
/// controls...), a format character (`Cf`: the zero-width space U+200B and
/// joiners, the soft hyphen, the byte order mark, and the bidirectional
/// controls such as U+202E, which can make a terminal show text in another
/// order than it is stored), or a line or paragraph separator (`Zl`, `Zp`).
/// Two ids that differ only by such a character would print alike.
pub fn is_unsafe_char(c: char) -> bool {
    use GeneralCategory::{Control, Format, LineSeparator, ParagraphSeparator};
    matches!(get_general_category(c), Control | Format | LineSeparator | ParagraphSeparator)
}

/// `s` in Unicode Normalization Form C, the one spelling ids are compared
/// in: `café` written with `é` (U+00E9) or with `e` and U+0301 is the same
/// id. Borrowed when `s` already is (always for ASCII).
pub fn nfc(s: &str) -> Cow<'_, str> {
    match is_nfc_quick(s.chars()) {
        IsNormalized::Yes => Cow::Borrowed(s),
        _ => Cow::Owned(s.nfc().collect()),
    }
}

/// What is wrong with `s` as an id or name of a game: the first invisible
/// or control character, shown escaped (`\u{200b}`), and where it is.
pub fn id_problem(s: &str) -> Option<String> {
    first_unsafe_char(s).map(|(i, c)| {
        format!(
            "holds the invisible or control character \\u{{{:x}}} at character {i}; ids and names must be printable text",
            c as u32
        )
    })
}

/// The first unsafe character of `s` (see [`is_unsafe_char`]): its position
/// in characters (0-based) and the character.
pub(crate) fn first_unsafe_char(s: &str) -> Option<(usize, char)> {
    s.chars().enumerate().find(|&(_, c)| is_unsafe_char(c))
}

/// `s` with every unsafe character written as `\u{1b}` (a Rust/JSON-like
/// escape that a reader can still identify).
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe_char) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `s` cut to at most `max` characters, the cut marked with `…`.
pub fn elide(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => Cow::Borrowed(s),
        Some(_) => {
            let keep = max.saturating_sub(1);
            let end = s.char_indices().nth(keep).map_or(s.len(), |(i, _)| i);
            Cow::Owned(format!("{}…", &s[..end]))
        }
    }
}

/// A foreign string as an error message shows it: elided to a few dozen
/// characters, then escaped (without quotes; callers add them).
pub fn quote(s: &str) -> String {
    escape(&elide(s, QUOTE_CHARS)).into_owned()
}

/// Escapes every unsafe character of a whole message except line breaks:
/// the last line of defence before text reaches a terminal.
pub fn escape_message(s: &str) -> String {
    s.split('\n').map(|line| escape(line).into_owned()).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_bidi_overrides() {
        assert_eq!(escape("a\u{1b}[31mb\u{7}\0c\u{202e}d"), "a\\u{1b}[31mb\\u{7}\\u{0}c\\u{202e}d");
        assert_eq!(escape("Mrs. Peacock é"), "Mrs. Peacock é");
        assert_eq!(first_unsafe_char("ab\u{2066}"), Some((2, '\u{2066}')));
        assert_eq!(first_unsafe_char("plain"), None);
        assert_eq!(escape_message("a\u{7}\nb"), "a\\u{7}\nb");
    }

    #[test]
    fn invisible_and_format_characters_are_unsafe() {
        for c in ['\u{200b}', '\u{200d}', '\u{ad}', '\u{feff}', '\u{2028}', '\u{2029}', '\u{e0041}', '\u{85}'] {
            assert!(is_unsafe_char(c), "{:x}", c as u32);
        }
        for c in ['a', 'é', ' ', '\u{301}', '字', '🙂'] {
            assert!(!is_unsafe_char(c), "{:x}", c as u32);
        }
        assert_eq!(escape("a\u{200b}"), "a\\u{200b}");
        let problem = id_problem("a\u{200b}").unwrap();
        assert_eq!(
            problem,
            "holds the invisible or control character \\u{200b} at character 1; ids and names must be printable text"
        );
        assert_eq!(id_problem("café"), None);
    }

    #[test]
    fn ids_are_compared_in_nfc() {
        let composed = "caf\u{e9}";
        let decomposed = "cafe\u{301}";
        assert_ne!(composed, decomposed);
        assert_eq!(nfc(decomposed), composed);
        assert!(matches!(nfc(composed), Cow::Borrowed(_)));
        assert!(matches!(nfc("plain ascii"), Cow::Borrowed(_)));
        // Hangul jamo compose; a singleton (U+212B ANGSTROM SIGN) maps to Å.
        assert_eq!(nfc("\u{1100}\u{1161}"), "\u{ac00}");
        assert_eq!(nfc("\u{212b}"), "\u{c5}");
    }

    #[test]
    fn elides_long_text_by_characters() {
        assert_eq!(elide("abcdef", 6), "abcdef");
        assert_eq!(elide("abcdefg", 6), "abcde…");
        assert_eq!(elide("ééééééé", 3), "éé…");
        assert_eq!(quote(&"x".repeat(100_000)).chars().count(), QUOTE_CHARS);
    }
}
