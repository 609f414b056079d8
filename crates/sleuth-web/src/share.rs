//! Joining from a phone: the URLs of this computer that a phone on the same
//! network can open, and a QR code of the first one (the `qrcode` crate),
//! as SVG for the page and as Unicode half blocks for the terminal.
//!
//! A server listening on every address (`0.0.0.0` or `::`) is reached
//! through the addresses of this computer's network interfaces (the
//! `if-addrs` crate), never through `0.0.0.0`, which no phone can open.
//! Which of them come first is decided by [`lan_urls`], a pure function of
//! the interface list so that it is tested without a network.

use qrcode::render::svg;
use qrcode::QrCode;
use serde_json::{json, Value};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// Where the server can be reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Share {
    /// The address the server listens on.
    pub listening: SocketAddr,
    /// The URLs to open, with the token, best first.
    pub urls: Vec<String>,
    /// Whether the first URL is reachable from another device (not loopback).
    pub lan: bool,
}

impl Share {
    /// The URLs for a server on `listening`, from this computer's interfaces.
    pub fn find(listening: SocketAddr, token: Option<&str>) -> Share {
        let interfaces: Vec<IpAddr> = if listening.ip().is_unspecified() {
            match if_addrs::get_if_addrs() {
                Ok(list) => list.iter().map(if_addrs::Interface::ip).collect(),
                Err(e) => {
                    eprintln!("sleuth serve: warning: cannot list the network interfaces: {e}");
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        lan_urls(listening, &interfaces, token)
    }

    /// The JSON of `GET /api/share`, with the first URL's QR code as SVG.
    pub fn json(&self) -> Value {
        json!({
            "urls": self.urls,
            "qr_svg": self.urls.first().and_then(|u| qr_svg(u)),
            "listening": self.listening.to_string(),
            "lan": self.lan,
        })
    }
}

/// The URLs for a server on `listening`, given the addresses of this
/// computer's interfaces (used only when `listening` is unspecified):
/// a specific address is the one URL; `0.0.0.0` gives every IPv4 interface
/// address and `::` every IPv4 and IPv6 one, except loopback, IPv6
/// link-local (a browser cannot open those without a zone) and multicast;
/// private IPv4 networks come first (192.168/16, then 10/8, then
/// 172.16/12, where container bridges usually live), link-local 169.254/16
/// last. With no such address, the loopback URL (`lan` false).
pub fn lan_urls(listening: SocketAddr, interfaces: &[IpAddr], token: Option<&str>) -> Share {
    let port = listening.port();
    let ip = listening.ip();
    let mut ips: Vec<IpAddr> = if ip.is_unspecified() {
        let mut ips: Vec<IpAddr> = interfaces
            .iter()
            .copied()
            .filter(|a| reachable(*a) && (ip.is_ipv6() || a.is_ipv4()))
            .fold(Vec::new(), |mut seen, a| {
                if !seen.contains(&a) {
                    seen.push(a);
                }
                seen
            });
        ips.sort_by_key(|a| rank(*a)); // stable: interface order within a rank
        ips
    } else {
        vec![ip]
    };
    if ips.is_empty() {
        ips.push(if ip.is_ipv6() { IpAddr::V6(Ipv6Addr::LOCALHOST) } else { IpAddr::V4(Ipv4Addr::LOCALHOST) });
    }
    let lan = !ips[0].is_loopback();
    let urls = ips.into_iter().map(|a| crate::url(SocketAddr::new(a, port), token)).collect();
    Share { listening, urls, lan }
}

/// Whether another device could reach `ip`.
fn reachable(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(a) => !(a.is_loopback() || a.is_unspecified() || a.is_multicast() || a.is_broadcast()),
        // fe80::/10 needs a zone id, which browsers do not take in URLs.
        IpAddr::V6(a) => {
            !(a.is_loopback() || a.is_unspecified() || a.is_multicast() || (a.segments()[0] & 0xffc0) == 0xfe80)
        }
    }
}

/// The order of addresses: the likeliest home or table network first.
fn rank(ip: IpAddr) -> u8 {
    match ip {
        IpAddr::V4(a) => match a.octets() {
            [192, 168, ..] => 0,
            [10, ..] => 1,
            [172, b, ..] if (16..32).contains(&b) => 2,
            [169, 254, ..] => 4,
            _ => 3,
        },
        IpAddr::V6(_) => 5,
    }
}

/// `text` as a QR code in SVG (no XML declaration, so it can go inline in
/// HTML); `None` when it is too long for a QR code.
pub fn qr_svg(text: &str) -> Option<String> {
    let code = QrCode::new(text.as_bytes()).ok()?;
    let image = code
        .render::<svg::Color<'_>>()
        .min_dimensions(240, 240)
        .dark_color(svg::Color("#000000"))
        .light_color(svg::Color("#ffffff"))
        .build();
    let start = image.find("<svg").unwrap_or(0);
    Some(image[start..].to_string())
}

/// The quiet zone a QR reader needs around the code, in modules (the standard's 4).
const QUIET: usize = 4;

/// `text` as a QR code in Unicode half blocks (two modules a character),
/// dark on light whatever the terminal's colours: every line sets its own
/// colours (black on white from the 256-colour cube, which terminal themes
/// leave alone) and the code has its quiet zone, so a phone's camera reads
/// it on light and dark terminals alike.
pub fn qr_terminal(text: &str) -> Option<String> {
    let code = QrCode::new(text.as_bytes()).ok()?;
    let width = code.width();
    let colors = code.to_colors();
    let size = width + 2 * QUIET;
    let dark = |x: usize, y: usize| {
        let inside = (QUIET..QUIET + width).contains(&x) && (QUIET..QUIET + width).contains(&y);
        inside && colors[(y - QUIET) * width + (x - QUIET)] == qrcode::Color::Dark
    };
    let mut out = String::new();
    for y in (0..size).step_by(2) {
        if y > 0 {
            out.push('\n');
        }
        out.push_str("\x1b[38;5;16;48;5;231m");
        for x in 0..size {
            out.push(match (dark(x, y), dark(x, y + 1)) {
                (true, true) => '\u{2588}',
                (true, false) => '\u{2580}',
                (false, true) => '\u{2584}',
                (false, false) => ' ',
            });
        }
        out.push_str("\x1b[0m");
    }
    Some(out)
}

/// The command that serves the same data folder to phones on the network,
/// for the "Join from a phone" panel of a server listening on loopback.
pub fn listen_command(data: &std::path::Path, listening: SocketAddr) -> String {
    let port = match listening.port() {
        0 => 7878,
        p => p,
    };
    format!("sleuth serve --data {} --listen 0.0.0.0:{port}", shell_word(&data.to_string_lossy()))
}

/// `s` as one word for a POSIX shell: as it is when it is plain, else in
/// single quotes.
fn shell_word(s: &str) -> String {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-+:=@%,".contains(&b)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ips(list: &[&str]) -> Vec<IpAddr> {
        list.iter().map(|s| s.parse().unwrap()).collect()
    }

    fn at(addr: &str, interfaces: &[&str]) -> Share {
        lan_urls(addr.parse().unwrap(), &ips(interfaces), Some("t0k"))
    }

    // Interface lists as `ip addr` shows them on a laptop with Wi-Fi, a
    // docker bridge, a link-local address and IPv6.
    const LAPTOP: &[&str] =
        &["127.0.0.1", "172.17.0.1", "10.8.0.2", "192.168.1.20", "169.254.3.4", "::1", "fe80::1", "2001:db8::5"];

    #[test]
    fn every_address_lists_the_lan_addresses_best_first_never_0_0_0_0() {
        let s = at("0.0.0.0:7878", LAPTOP);
        assert_eq!(
            s.urls,
            [
                "http://192.168.1.20:7878/?token=t0k",
                "http://10.8.0.2:7878/?token=t0k",
                "http://172.17.0.1:7878/?token=t0k",
                "http://169.254.3.4:7878/?token=t0k",
            ]
        );
        assert!(s.lan);
        let s = at("[::]:7878", LAPTOP);
        assert_eq!(s.urls.len(), 5);
        assert_eq!(s.urls[0], "http://192.168.1.20:7878/?token=t0k");
        assert_eq!(s.urls[4], "http://[2001:db8::5]:7878/?token=t0k");
        assert!(s.urls.iter().all(|u| !u.contains("0.0.0.0") && !u.contains("127.0.0.1") && !u.contains("fe80")));
    }

    #[test]
    fn a_specific_address_is_the_one_url_and_loopback_is_not_lan() {
        assert_eq!(at("192.168.1.20:80", LAPTOP).urls, ["http://192.168.1.20:80/?token=t0k"]);
        assert!(at("192.168.1.20:80", &[]).lan);
        let s = at("127.0.0.1:7878", LAPTOP);
        assert_eq!(s.urls, ["http://127.0.0.1:7878/?token=t0k"]);
        assert!(!s.lan);
    }

    #[test]
    fn no_lan_interface_falls_back_to_loopback() {
        let s = at("0.0.0.0:1", &["127.0.0.1", "::1"]);
        assert_eq!(s.urls, ["http://127.0.0.1:1/?token=t0k"]);
        assert!(!s.lan);
        let s = at("0.0.0.0:1", &["fe80::1", "2001:db8::5"]);
        assert!(!s.lan, "an IPv4 listener cannot be reached on IPv6: {:?}", s.urls);
        assert_eq!(at("[::]:1", &["::1"]).urls, ["http://[::1]:1/?token=t0k"]);
    }

    #[test]
    fn duplicates_keep_their_first_place() {
        assert_eq!(at("0.0.0.0:2", &["10.0.0.1", "10.0.0.2", "10.0.0.1"]).urls.len(), 2);
    }

    #[test]
    fn this_machines_interfaces_never_give_0_0_0_0() {
        // Lists the interfaces only; nothing is bound.
        let s = Share::find("0.0.0.0:7878".parse().unwrap(), None);
        assert!(!s.urls.is_empty());
        assert!(s.urls.iter().all(|u| !u.contains("0.0.0.0")), "{:?}", s.urls);
        assert_eq!(s.lan, !s.urls[0].contains("127.0.0.1"), "{:?}", s.urls);
    }

    /// Reads a terminal QR code as a camera would: each character is two
    /// modules, a glyph's ink is dark.
    fn read_terminal_qr(text: &str) -> String {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| {
                assert!(l.starts_with("\x1b[38;5;16;48;5;231m") && l.ends_with("\x1b[0m"), "colours set: {l:?}");
                l.trim_start_matches("\x1b[38;5;16;48;5;231m").trim_end_matches("\x1b[0m").chars().collect()
            })
            .collect();
        let (w, h) = (rows[0].len(), rows.len() * 2);
        assert!(rows.iter().all(|r| r.len() == w));
        let scale = 4;
        let img = rqrr::PreparedImage::prepare_from_greyscale(w * scale, h * scale, |x, y| {
            let (c, upper) = (rows[y / scale / 2][x / scale], (y / scale) % 2 == 0);
            let ink = matches!((c, upper), ('\u{2588}', _) | ('\u{2580}', true) | ('\u{2584}', false));
            if ink {
                0
            } else {
                255
            }
        });
        let mut img = img;
        let grids = img.detect_grids();
        assert_eq!(grids.len(), 1, "one code found");
        grids[0].decode().unwrap().1
    }

    #[test]
    fn qr_codes_are_drawn_dark_on_light_with_their_quiet_zone_and_read_back() {
        let url = "http://192.168.1.20:7878/?token=0123456789abcdef0123456789abcdef";
        let svg = qr_svg(url).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
        let text = qr_terminal(url).unwrap();
        assert_eq!(read_terminal_qr(&text), url);
        let lines: Vec<&str> = text.lines().collect();
        let plain: Vec<String> =
            lines.iter().map(|l| l.chars().filter(|c| " \u{2580}\u{2584}\u{2588}".contains(*c)).collect()).collect();
        // The quiet zone: two blank lines (4 modules) above, four blank columns each side.
        assert!(plain[0].trim().is_empty() && plain[1].trim().is_empty());
        assert!(plain.iter().all(|l| l.starts_with("    ") && l.ends_with("    ")));
        assert_eq!(plain.len(), plain[0].chars().count().div_ceil(2));
    }

    #[test]
    fn the_listen_command_keeps_the_data_folder() {
        let at = "127.0.0.1:7878".parse().unwrap();
        assert_eq!(
            listen_command(std::path::Path::new("/home/me/clue"), at),
            "sleuth serve --data /home/me/clue --listen 0.0.0.0:7878"
        );
        assert_eq!(
            listen_command(std::path::Path::new("/home/me/Clue games/it's"), "127.0.0.1:0".parse().unwrap()),
            "sleuth serve --data '/home/me/Clue games/it'\\''s' --listen 0.0.0.0:7878"
        );
    }
}
