//! `tegula serve`: a local web app to play any variant against agents, and author mode.
//!
//! The server ([axum] on [tokio]) binds to loopback only and answers only requests naming it in
//! `Host`; writes from other origins are refused; bodies are bounded ([`app::MAX_BODY`]), and
//! so are the games kept ([`app::MAX_GAMES`]). Variants are found by walking the data roots
//! ([`catalog`]); a request names a variant by key, never by path. The page
//! (`assets/`) knows no tile, figure or rule: it draws the SVG the render crate makes and
//! lists the legal actions the engine gives, in words ([`view`]).
//!
//! Routes: `/` (set up a game), `/play?variant=K&seats=a,b&seed=S&autoplay=1` (set up and, with
//! `autoplay`, let the agents play to the end), `/author` (author mode), and the JSON API under
//! `/api/` ([`api`]).

pub mod api;
pub mod app;
pub mod assets;
pub mod catalog;
pub mod export;
pub mod session;
pub mod view;
pub mod watch;

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What `tegula serve` was asked for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Port on 127.0.0.1 (0: a free one).
    pub port: u16,
    /// The shipped variants' folder (always a data root, keys without prefix).
    pub shipped: PathBuf,
    /// More data roots (`--data DIR`), keys prefixed with the folder's name.
    pub data: Vec<PathBuf>,
    /// Author mode's folder (`--watch DIR`; also a data root).
    pub watch: Option<PathBuf>,
}

/// The data roots of `opts`: the shipped variants, then `--data`, then the watched folder.
fn roots(opts: &Options) -> anyhow::Result<Vec<catalog::Root>> {
    let mut out = vec![catalog::root(&opts.shipped, "").map_err(anyhow::Error::msg)?];
    for dir in opts.data.iter().chain(opts.watch.iter()) {
        let name = dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "data".to_string());
        let mut prefix = name.clone();
        let mut k = 2;
        while out.iter().any(|r: &catalog::Root| r.prefix == prefix) {
            prefix = format!("{name}{k}");
            k += 1;
        }
        let mut root = catalog::root(dir, &prefix).map_err(anyhow::Error::msg)?;
        root.watched = opts.watch.as_ref() == Some(dir);
        match out.iter_mut().find(|r| r.dir == root.dir) {
            Some(r) => r.watched |= root.watched,
            None => out.push(root),
        }
    }
    Ok(out)
}

/// Run the server until Ctrl-C. `ready` is called once with the URL the server answers on.
pub fn run(opts: Options, ready: impl FnOnce(&str)) -> anyhow::Result<()> {
    let roots = roots(&opts)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let stop = Arc::new(AtomicBool::new(false));
    let result = runtime.block_on(async {
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, opts.port));
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
        let port = listener.local_addr()?.port();
        let watch = (opts.watch.clone()).map(|dir| watch::start(dir, stop.clone()));
        let app = Arc::new(app::App::new(catalog::Catalog::new(roots), port, watch));
        ready(&format!("http://127.0.0.1:{port}/"));
        axum::serve(listener, app::router(app))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        anyhow::Ok(())
    });
    stop.store(true, Ordering::Relaxed);
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    result
}
