//! `Analysis._repr_html_`: the notepad as an HTML table for notebooks.

use sleuth_core::{Analysis, Game, Place, Status};
use std::fmt::Write;

/// Text made safe inside HTML elements and attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

/// A row per card grouped by category, a column per place: ✔ where the
/// card certainly is, · where it certainly is not, else its probability.
pub fn notepad(game: &Game, analysis: &Analysis) -> String {
    let mut html = String::from("<div class=\"sleuth-notepad\">");
    if !analysis.is_consistent() {
        html.push_str("<p><b>Inconsistent</b>: no deal fits every event.");
        if let Some(conflict) = analysis.conflict() {
            html.push_str(" These cannot all be true together:</p><ul>");
            for &i in &conflict.events {
                let text = game.describe_event(i).unwrap_or_default();
                let _ = write!(html, "<li>event {i}: {}</li>", escape(&text));
            }
            if conflict.hand {
                html.push_str("<li>your hand</li>");
            }
            html.push_str("</ul>");
        } else {
            html.push_str("</p>");
        }
        html.push_str("</div>");
        return html;
    }
    let _ = write!(html, "<p>{} consistent deals (exact)</p><table><thead><tr><th></th>", analysis.consistent_deals());
    for place in game.places() {
        let name = if place == Place::CaseFile { "case file" } else { game.place_id(place) };
        let _ = write!(html, "<th>{}</th>", escape(name));
    }
    html.push_str("</tr></thead><tbody>");
    let deck = game.deck();
    for category in deck.categories() {
        let _ = write!(
            html,
            "<tr><th colspan=\"{}\" style=\"text-align:left\">{}</th></tr>",
            game.num_places() + 1,
            escape(deck.category_name(category))
        );
        for card in deck.category_cards(category) {
            let _ = write!(html, "<tr><th title=\"{}\">{}</th>", escape(deck.name(card)), escape(deck.id(card)));
            for place in game.places() {
                let cell = match analysis.status(card, place) {
                    Status::Yes => "<td style=\"text-align:center;color:green\">✔</td>".to_string(),
                    Status::No => "<td style=\"text-align:center;color:gray\">·</td>".to_string(),
                    Status::Maybe => {
                        let p = analysis.probability(card, place);
                        format!("<td style=\"text-align:right\">{:.1}%</td>", 100.0 * p)
                    }
                };
                html.push_str(&cell);
            }
            html.push_str("</tr>");
        }
    }
    html.push_str("</tbody></table></div>");
    html
}
