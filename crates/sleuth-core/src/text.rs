//! User text made safe to print: control and bidi characters escaped,
//! very long ids elided.
//!
//! Game files are validated so that the ids and names of a [`Game`](crate::Game)
//! hold no control or bidi character and are at most [`MAX_ID_CHARS`]
//! characters long. Text that has not passed validation (an unknown id in an
//! error message, a key, a command-line argument) goes through [`quote`] or
//! [`escape`] before it is printed, so that no input can move a terminal's
//! cursor, ring its bell, reverse the text around it or fill the screen.

use std::borrow::Cow;
use std::fmt::Write as _;

/// The longest id or name a game file may hold, in characters.
pub const MAX_ID_CHARS: usize = 100;

/// How many characters of a foreign string an error message shows.
const QUOTE_CHARS: usize = 40;

/// Whether `c` must not be printed raw: a control character (Unicode `Cc`:
/// NUL, BEL, ESC, DEL, C1 controls...) or a bidirectional formatting
/// character (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), which
/// can make a terminal show text in another order than it is stored.
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The first unsafe character of `s` (see [`is_unsafe_char`]): its position
/// in characters (0-based) and the character.
pub fn first_unsafe_char(s: &str) -> Option<(usize, char)> {
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
    fn elides_long_text_by_characters() {
        assert_eq!(elide("abcdef", 6), "abcdef");
        assert_eq!(elide("abcdefg", 6), "abcde…");
        assert_eq!(elide("ééééééé", 3), "éé…");
        assert_eq!(quote(&"x".repeat(100_000)).chars().count(), QUOTE_CHARS);
    }
}
