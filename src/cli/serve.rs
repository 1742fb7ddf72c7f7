//! `tegula serve`: the local web app (crates/serve) — set up a game of any variant, play it
//! against agents by clicking, save and load logs, and author mode (`--watch DIR`). Built only
//! with the cargo feature `serve`, so that the other verbs do not build the HTTP stack.

use std::path::PathBuf;

use super::out;

/// Arguments of `tegula serve`.
#[derive(clap::Args)]
#[command(
    after_help = "Routes: / sets up a game; /play?variant=base&seats=human,random&seed=7 plays \
                  one (autoplay=1 lets agents play it to the end); /author shows author mode.\n\n\
                  The server binds to 127.0.0.1 only and answers only requests whose Host is \
                  127.0.0.1:PORT or localhost:PORT. Ctrl-C stops it.\n\n\
                  This verb exists when tegula is built with the `serve` feature: \
                  cargo run --features serve -- serve\n\n\
                  Exit status: 0 stopped by Ctrl-C, 2 usage or I/O error (a data root that is \
                  not a folder, a port in use, or a tegula built without the feature)."
)]
pub struct Args {
    /// Port on 127.0.0.1 (default: a free one, printed).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Another folder of variants (and the tile sets they read) to offer; repeatable. The
    /// shipped `variants/` are always offered.
    #[arg(long, value_name = "DIR")]
    pub data: Vec<PathBuf>,
    /// Author mode: validate the tile sets and variants under DIR on every save and show the
    /// diagnostics and the tiles in the page (/author); its variants can be played.
    #[arg(long, value_name = "DIR")]
    pub watch: Option<PathBuf>,
    /// Open the page in the default browser (`xdg-open`, `open` on macOS).
    #[arg(long)]
    pub open: bool,
    /// The shipped variants' folder (default: `variants` here, else the source tree's).
    #[arg(long, value_name = "DIR", hide = true)]
    pub shipped: Option<PathBuf>,
}

/// The shipped variants: `variants/` in the working folder, else the source tree's.
fn shipped(args: &Args) -> PathBuf {
    if let Some(p) = &args.shipped {
        return p.clone();
    }
    let here = PathBuf::from("variants");
    if here.is_dir() {
        return here;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("variants")
}

/// Run the verb.
#[cfg(feature = "serve")]
pub fn run(args: Args) -> anyhow::Result<u8> {
    let opts = tegula_serve::Options {
        port: args.port,
        shipped: shipped(&args),
        data: args.data.clone(),
        watch: args.watch.clone(),
    };
    let open = args.open;
    tegula_serve::run(opts, |url| {
        out::eprintln(&format!("tegula serve: {url} (Ctrl-C stops)"));
        let _ = out::println(url);
        if open {
            open_browser(url);
        }
    })?;
    Ok(0)
}

/// Ask the desktop to open `url`; a note when it cannot.
#[cfg(feature = "serve")]
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let started = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if started.is_err() {
        out::eprintln(&format!(
            "note: could not run `{opener}`; open {url} yourself"
        ));
    }
}

/// Run the verb: this tegula was built without the server.
#[cfg(not(feature = "serve"))]
pub fn run(args: Args) -> anyhow::Result<u8> {
    let _ = shipped(&args);
    out::eprintln(
        "error: this tegula was built without the web server (the cargo feature `serve`).\n  \
         Run it with: cargo run --features serve -- serve\n  \
         or install it with: cargo install --path . --features serve",
    );
    Ok(2)
}
