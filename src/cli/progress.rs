//! Long runs (`simulate`, `simulate --compare`) report progress and can be stopped: a bar on a
//! terminal, a line every few seconds otherwise (a log file, CI), and the first Ctrl-C asks the
//! workers to stop after the game each is playing, so the figures of the finished games can
//! still be printed.

use std::io::IsTerminal as _;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::out;

/// Exit code after Ctrl-C (128 + SIGINT, as shells report it).
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

/// Reports progress: a bar on a terminal, otherwise a line every `every` seconds.
pub(crate) struct Progress {
    bar: Option<indicatif::ProgressBar>,
    every: Option<Duration>,
    total: u64,
    start: Instant,
    last: Mutex<Instant>,
}

impl Progress {
    /// Progress over `total` games; a line every `every_secs` seconds when stderr is not a
    /// terminal (0: never).
    pub(crate) fn new(total: u64, every_secs: f64) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = indicatif::ProgressBar::new(total);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games ({per_sec}, eta {eta})",
            ) {
                b.set_style(style);
            }
            b
        });
        let every = (bar.is_none() && every_secs > 0.0)
            .then(|| Duration::try_from_secs_f64(every_secs).ok())
            .flatten();
        Progress {
            bar,
            every,
            total,
            start: Instant::now(),
            last: Mutex::new(Instant::now()),
        }
    }

    /// `done` games are finished (called from the worker threads).
    pub(crate) fn update(&self, done: u64) {
        if let Some(b) = &self.bar {
            b.set_position(done);
        }
        let Some(every) = self.every else { return };
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        if last.elapsed() >= every {
            *last = Instant::now();
            let rate = done as f64 / self.start.elapsed().as_secs_f64().max(1e-9);
            out::eprintln(&format!(
                "progress: {done}/{} games ({rate:.0} games/s)",
                self.total
            ));
        }
    }

    /// Remove the bar.
    pub(crate) fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// Check a `--progress-every` value: a finite number of seconds, 0 or more.
pub(crate) fn check_interval(secs: f64) -> anyhow::Result<()> {
    if !secs.is_finite() || secs < 0.0 {
        anyhow::bail!("--progress-every takes a number of seconds, 0 or more");
    }
    Ok(())
}

/// A flag set by the first Ctrl-C (a second one ends the process at once, exit 130).
pub(crate) fn interrupt_flag() -> anyhow::Result<Arc<AtomicBool>> {
    use signal_hook::consts::SIGINT;
    let flag = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register_conditional_shutdown(SIGINT, 130, Arc::clone(&flag))?;
    signal_hook::flag::register(SIGINT, Arc::clone(&flag))?;
    Ok(flag)
}
