//! `sleuth serve`: the notepad in the browser (the server is sleuth-web).

use crate::Outcome;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where games are kept: DIR/games/ID.json (game files) and ID.journal.
    #[arg(long, value_name = "DIR", default_value = "sleuth-data")]
    data: PathBuf,
    /// The port on 127.0.0.1 (0 picks a free one).
    #[arg(long, value_name = "N", default_value_t = 7878, conflicts_with = "listen")]
    port: u16,
    /// Listen on ADDR (e.g. 0.0.0.0:7878) to reach the notepad from a phone on
    /// the same network; every request then needs the access token printed at start.
    #[arg(long, value_name = "ADDR")]
    listen: Option<SocketAddr>,
    /// Open the notepad in the default browser.
    #[arg(long)]
    open: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let (addr, token) = match args.listen {
        Some(addr) => (addr, Some(sleuth_web::guard::new_token())),
        None => (SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), args.port), None),
    };
    let config = sleuth_web::Config { data: args.data.clone(), addr, token, max_states: crate::limits::max_states()? };
    let open = args.open;
    let data = args.data.display().to_string();
    let listening = args.listen.is_some();
    sleuth_web::serve(config, |share| {
        let _ = print_urls(out, share, listening, &data);
        if open {
            if let Some(url) = share.urls.first() {
                open_browser(url);
            }
        }
    })?;
    Ok(Outcome::Success)
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
    writeln!(out, "sleuth serve: notepad at {first} (games in {data}/games)")?;
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
        assert_eq!(lines[0], "sleuth serve: notepad at http://192.168.1.20:7878/?token=t0k (games in d/games)");
        assert_eq!(lines[1], "sleuth serve: also at http://10.0.0.5:7878/?token=t0k");
        let qr = sleuth_web::share::qr_terminal("http://192.168.1.20:7878/?token=t0k").unwrap();
        assert_eq!(lines[2..lines.len() - 1].join("\n"), qr.trim_end_matches('\n'));
        assert!(lines.last().unwrap().contains("scan this with a phone"));
        assert!(!text.contains("0.0.0.0"));
    }

    #[test]
    fn loopback_prints_one_url_and_no_qr_code() {
        let text = printed("127.0.0.1:7878", &[], false);
        assert_eq!(text, "sleuth serve: notepad at http://127.0.0.1:7878/ (games in d/games)\n");
        let text = printed("0.0.0.0:7878", &["127.0.0.1"], true);
        assert!(text.contains("a phone cannot reach 0.0.0.0:7878") && !text.contains('█'), "{text}");
    }
}
