//! `sleuth speedclue IDENTIFIER PORT`: plays in a Speed Clue contest. It
//! connects to the server on localhost:PORT, sends `IDENTIFIER alive`, and
//! answers every message with an agent (the protocol, its framing, and the
//! rules the client enforces itself are documented in
//! `sleuth_sim::speedclue`) until `done`. The contest's launch-file line is
//! `path/to/sleuth speedclue {Sleuth} %%`.

use crate::Outcome;
use anyhow::{bail, Context as _};
use sleuth_sim::speedclue::{play_session, Client};
use sleuth_sim::{agent_by_name, AGENT_NAMES};
use std::io::Write;
use std::net::TcpStream;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The name this player gives the server.
    identifier: String,
    /// The server's port on localhost.
    port: u16,
    /// The agent that plays (default: the strongest registered one).
    #[arg(long)]
    agent: Option<String>,
    /// Seeds the agent's random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// The agent used without `--agent`: `sleuth` when it is registered,
/// otherwise `exact`.
pub fn default_agent() -> &'static str {
    ["sleuth", "exact"].into_iter().find(|name| AGENT_NAMES.contains(name)).unwrap_or(AGENT_NAMES[0])
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let id = &args.identifier;
    if id.is_empty() || id.chars().any(char::is_whitespace) {
        bail!("the identifier must be one word, got '{}'", sleuth_core::text::quote(id));
    }
    if let Some(problem) = sleuth_core::text::id_problem(id) {
        bail!("the identifier '{}' {problem}", sleuth_core::text::quote(id));
    }
    let name = args.agent.as_deref().unwrap_or_else(|| default_agent());
    let Some(agent) = agent_by_name(name) else {
        bail!("unknown agent '{name}'; the agents are: {}", AGENT_NAMES.join(", "));
    };
    // `localhost`, as the published entrants connect (IPv4 or IPv6).
    let mut stream = TcpStream::connect(("localhost", args.port))
        .with_context(|| format!("cannot connect to the server on localhost:{}", args.port))?;
    // Each reply is one write; no Nagle delay behind it.
    stream.set_nodelay(true).context("cannot set up the connection")?;
    let mut client = Client::new(agent, args.seed);
    let games = play_session(&args.identifier, &mut client, &mut stream)
        .with_context(|| format!("after {} games", client.games()))?;
    writeln!(out, "{}: {games} games played by the {name} agent; the server said done", args.identifier)?;
    Ok(Outcome::Success)
}
