//! `sleuth serve`: the notepad in the browser (the server is sleuth-web).

use crate::Outcome;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The data folder: games are kept in DIR/sleuth.db (a folder of game
    /// files and journals from an older version is imported at start).
    #[arg(long, value_name = "DIR", default_value = "sleuth-data")]
    data: PathBuf,
    /// The port on 127.0.0.1 (0 picks a free one).
    #[arg(long, value_name = "N", default_value_t = 7878, conflicts_with = "listen")]
    port: u16,
    /// Listen on ADDR (e.g. 0.0.0.0:7878) to reach the notepad from a phone on
    /// the same network; every request then needs the access token printed at start.
    #[arg(long, value_name = "ADDR")]
    listen: Option<SocketAddr>,
    /// With --listen: make a new access token (links and phones that joined
    /// with the old one are refused); by default the token is kept in the
    /// data folder and stays the same across restarts.
    #[arg(long, requires = "listen")]
    new_token: bool,
    /// Open the notepad in the default browser.
    #[arg(long)]
    open: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let (addr, access) = match args.listen {
        Some(addr) => (addr, sleuth_web::Access::Token { renew: args.new_token }),
        None => (SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), args.port), sleuth_web::Access::Local),
    };
    let config = sleuth_web::Config { data: args.data.clone(), addr, access, max_states: crate::limits::max_states()? };
    let open = args.open;
    let listening = args.listen.is_some();
    sleuth_web::serve(config, |started| {
        let _ = print_urls(out, started.share, listening, &started.store.database.display().to_string());
        let _ = print_store(out, started);
        if open {
            if let Some(url) = started.share.urls.first() {
                open_browser(url);
            }
        }
    })?;
    Ok(Outcome::Success)
}

/// What the store found at start: how many games, read-only or not, and
/// every problem, each naming the game and the line or step.
fn print_store(out: &mut dyn Write, started: &sleuth_web::Started<'_>) -> std::io::Result<()> {
    let report = started.store;
    writeln!(out, "sleuth serve: {}", report.summary())?;
    for p in &report.problems {
        writeln!(out, "sleuth serve: damaged: {p}")?;
    }
    for n in report.notes.iter().chain(&started.token_note) {
        writeln!(out, "sleuth serve: {n}")?;
    }
    out.flush()
}

/// Where to open the notepad: the first URL on the first line (tests and
/// scripts read it to find the port), every other LAN address after it,
/// and with `--listen` the first URL's QR code for a phone's camera.
fn print_urls(
    out: &mut dyn Write,
    share: &sleuth_web::share::Share,
    listening: bool,
    data: &str,
) -> std::io::Result<()> {
    let Some((first, others)) = share.urls.split_first() else { return Ok(()) };
    writeln!(out, "sleuth serve: notepad at {first} (games in {data})")?;
    for url in others {
        writeln!(out, "sleuth serve: also at {url}")?;
    }
    if listening && share.lan {
        if let Some(qr) = sleuth_web::share::qr_terminal(first) {
            writeln!(out, "{qr}")?;
            writeln!(
                out,
                "sleuth serve: scan this with a phone on the same network to join (the token is in the code)"
            )?;
        }
    } else if listening {
        writeln!(
            out,
            "sleuth serve: no network address found besides loopback: a phone cannot reach {}",
            share.listening
        )?;
    }
    out.flush()
}

/// Opens `url` in the default browser; failing to is not an error.
fn open_browser(url: &str) {
    let cmd = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(cmd).arg(url).spawn() {
        eprintln!("sleuth serve: cannot open a browser ({cmd}: {e}); open {url} yourself");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sleuth_web::share::lan_urls;

    fn printed(listen: &str, interfaces: &[&str], listening: bool) -> String {
        let ips: Vec<IpAddr> = interfaces.iter().map(|s| s.parse().unwrap()).collect();
        let share = lan_urls(listen.parse().unwrap(), &ips, listening.then_some("t0k"));
        let mut out = Vec::new();
        print_urls(&mut out, &share, listening, "d").unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn listening_everywhere_prints_each_lan_url_and_a_qr_code_of_the_first() {
        let text = printed("0.0.0.0:7878", &["127.0.0.1", "10.0.0.5", "192.168.1.20"], true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "sleuth serve: notepad at http://192.168.1.20:7878/?token=t0k (games in d)");
        assert_eq!(lines[1], "sleuth serve: also at http://10.0.0.5:7878/?token=t0k");
        let qr = sleuth_web::share::qr_terminal("http://192.168.1.20:7878/?token=t0k").unwrap();
        assert_eq!(lines[2..lines.len() - 1].join("\n"), qr.trim_end_matches('\n'));
        assert!(lines.last().unwrap().contains("scan this with a phone"));
        assert!(!text.contains("0.0.0.0"));
    }

    #[test]
    fn loopback_prints_one_url_and_no_qr_code() {
        let text = printed("127.0.0.1:7878", &[], false);
        assert_eq!(text, "sleuth serve: notepad at http://127.0.0.1:7878/ (games in d)\n");
        let text = printed("0.0.0.0:7878", &["127.0.0.1"], true);
        assert!(text.contains("a phone cannot reach 0.0.0.0:7878") && !text.contains('█'), "{text}");
    }
}
